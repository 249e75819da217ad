import BenchmarkPhases
import Foundation

// spotlight-bench: OpenSpotlight's engine side by side with plain SQLite
// FTS5 and Tantivy on the Debian corpus. See BenchOptions for the command
// line; every measured phase runs in a child process, `spotlight-bench-child`
// beside this executable, or this one (ChildCommand).
// `spotlight-bench quality` measures search quality instead (QualityBenchmark).

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "--child" {
        try ChildCommand.run(arguments)
    } else if arguments.first == "service" {
        try ServiceBench.parse(arguments.dropFirst()).run()
    } else if arguments.first == "quality" {
        try QualityBenchmark.parse(Array(arguments.dropFirst())).run()
    } else {
        let options = try BenchOptions.parse(arguments)
        setenv(QueryLangWorkload.environmentKey, options.queryLanguageWorkloads.map(\.rawValue).joined(separator: ","), 1)
        try BenchmarkRunner(options: options).run()
    }
} catch BenchError.usage("") {
    print(ServiceBench.usage)
} catch BenchError.help {
    print(BenchOptions.usage)
} catch BenchError.usage(let message) {
    log("error: \(message)\n\n\(BenchOptions.usage)")
    exit(2)
} catch {
    log("\(error)")
    exit(error is BenchError ? 2 : 1)
}
