import Foundation

/// How many threads the index's parallel steps (tokenizing a chunk,
/// encoding and merging segments) may use: the processors this process
/// may run on.
///
/// ```swift
/// if Parallelism.cores > 1 { /* split the work */ }
/// ```
package enum Parallelism {
    /// Active processors, at least 1.
    package static let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
}
