import BenchmarkPhases
import Foundation

// spotlight-bench-child: one measured phase of spotlight-bench (indexing or
// querying, one engine, one scale), spawned by the parent (ChildCommand);
// it links the engine and GRDB only, so its memory is theirs.

do {
    try ChildCommand.run(Array(CommandLine.arguments.dropFirst()))
} catch {
    log("\(error)")
    exit(error is BenchError ? 2 : 1)
}
