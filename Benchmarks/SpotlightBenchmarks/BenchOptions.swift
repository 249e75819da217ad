import BenchmarkPhases
import Corpora
import Foundation

/// The public command line:
/// `spotlight-bench [--scales 10000,63666,1000000] [--engines engine,engine-batch,fts5,tantivy,tantivy-commits]
///  [--corpus-dir DIR] [--scripts-dir DIR] [--json FILE] [--rounds 3] [--work-dir DIR] [--keep]`.
struct BenchOptions: Sendable {
    static let defaultScales = [10_000, 63_666, 1_000_000]

    var scales = BenchOptions.defaultScales
    var engines = EngineKind.allCases
    /// Whether `--engines` named them: then Tantivy that cannot run is an
    /// error, not a note.
    var enginesGiven = false
    /// As the tests find it: `OPENSPOTLIGHT_CORPORA`, `../shared/corpora`, or `.build/corpora` (``Corpora``).
    var corpusDirectory = Corpora.directory()
    /// Where `tantivy.sh` and Tantivy's drivers are.
    var scriptsDirectory = URL(fileURLWithPath: "Benchmarks/tantivy", isDirectory: true)
    var jsonFile = URL(fileURLWithPath: "benchmark-results.json")
    var rounds = 3
    var workDirectory: URL?
    var keep = false
    /// The query-language workloads to run (all by default); handed to the
    /// `query` children in ``QueryLangWorkload/environmentKey``.
    var queryLanguageWorkloads = QueryLangWorkload.allCases

    static let usage = """
        usage: spotlight-bench [--scales 10000,63666,1000000] [--engines engine,engine-batch,fts5,tantivy,tantivy-commits]
                               [--corpus-dir DIR] [--scripts-dir DIR] [--json FILE] [--rounds 3]
                               [--work-dir DIR] [--keep] [--ql-workloads titleWord,infix,sectionAndSize,dateRange]

          --scales     item counts to index, comma-separated (10k and 1m shorthands work);
                       beyond the corpus's 63,666 packages it is replicated deterministically
          --engines    engine (OpenSpotlight's SpotlightStore, a commit a call), engine-batch (the same store given
                       the whole load in one batch, one commit at its end), fts5 (plain SQLite FTS5), tantivy (Tantivy 0.27
                       through Python, in a venv Benchmarks/tantivy/tantivy.sh makes from PyPI; left out with a
                       note when the venv cannot be made, unless named here; one commit at the end, ids stored),
                       tantivy-commits (the same Tantivy doing the engine's job: a commit every 1,000 items,
                       every field stored)
          --corpus-dir directory of debian-packages.jsonl.gz and queries.tsv (default: $OPENSPOTLIGHT_CORPORA,
                       else ../shared/corpora when present, else .build/corpora from python3 Scripts/make-corpora.py)
          --scripts-dir directory of tantivy.sh and tantivy_bench.py (default Benchmarks/tantivy)
          --json       where to write every figure as JSON (default benchmark-results.json)
          --rounds     timed rounds over the 300 queries, after one warm-up round (default 3);
                       the engine's query-language workloads run as many rounds
          --work-dir   where the temporary stores go (default: the system temporary directory)
          --keep       keep the stores instead of deleting them at the end
          --ql-workloads  the engine's query-language workloads to run (default: all four)

        spotlight-bench service --help: the resident service under typists' load, beside a process per keystroke
        """

    /// Parses the arguments after the executable's name.
    static func parse(_ arguments: [String]) throws -> BenchOptions {
        var options = BenchOptions()
        var remaining = arguments[...]
        func value(for flag: String) throws -> String {
            guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
                throw BenchError.usage("\(flag) needs a value")
            }
            return next
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--scales":
                options.scales = try value(for: argument).split(separator: ",").map { try parseCount(String($0)) }
                if options.scales.isEmpty { throw BenchError.usage("--scales needs at least one count") }
            case "--engines":
                options.engines = try value(for: argument).split(separator: ",").map { name in
                    guard let kind = EngineKind(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                        throw BenchError.usage("unknown engine \"\(name)\" (known: engine, fts5, tantivy, tantivy-commits)")
                    }
                    return kind
                }
                if options.engines.isEmpty { throw BenchError.usage("--engines needs at least one engine") }
                options.enginesGiven = true
            case "--corpus-dir":
                options.corpusDirectory = URL(fileURLWithPath: try value(for: argument), isDirectory: true)
            case "--scripts-dir":
                options.scriptsDirectory = URL(fileURLWithPath: try value(for: argument), isDirectory: true)
            case "--json":
                options.jsonFile = URL(fileURLWithPath: try value(for: argument))
            case "--rounds":
                let text = try value(for: argument)
                guard let rounds = Int(text), rounds >= 1 else { throw BenchError.usage("--rounds needs a positive integer (got \(text))") }
                options.rounds = rounds
            case "--work-dir":
                options.workDirectory = URL(fileURLWithPath: try value(for: argument), isDirectory: true)
            case "--keep":
                options.keep = true
            case "--ql-workloads":
                options.queryLanguageWorkloads = try value(for: argument).split(separator: ",").map { name in
                    guard let workload = QueryLangWorkload(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                        throw BenchError.usage("unknown workload \"\(name)\" (known: \(QueryLangWorkload.allCases.map(\.rawValue).joined(separator: ", ")))")
                    }
                    return workload
                }
            case "--help", "-h":
                throw BenchError.help
            default:
                throw BenchError.usage("unknown argument \"\(argument)\"")
            }
        }
        return options
    }

    /// `10000`, `10_000`, `10k`, `1m`.
    static func parseCount(_ text: String) throws -> Int {
        var digits = text.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: "_", with: "")
        var multiplier = 1
        if digits.hasSuffix("k") { multiplier = 1_000; digits.removeLast() }
        else if digits.hasSuffix("m") { multiplier = 1_000_000; digits.removeLast() }
        guard let count = Int(digits), count > 0 else { throw BenchError.usage("\"\(text)\" is not a positive item count") }
        return count * multiplier
    }
}
