// The ranking formula's values (`RankingWeights`, `ScoreBreakdown`,
// `SearchStatistics`) are declared in the ranked index's module, which
// computes them, and are part of this module's API: importing
// SpotlightIndex is enough to use them. An exported import is seen by every
// file of this module, so the engine's files use the package API without
// importing it again.
@_exported public import RankedSearch
