import Foundation

/// Why the benchmark stopped.
package enum BenchError: Error, CustomStringConvertible {
    case usage(String)
    case help
    case failed(String)

    package var description: String {
        switch self {
        case .usage(let message): "error: \(message) (spotlight-bench --help lists the options)"
        case .help: "spotlight-bench --help lists the options"
        case .failed(let message): "error: \(message)"
        }
    }
}
