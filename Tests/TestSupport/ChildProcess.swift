public import Foundation

/// A program run to its end by a test, its output collected.
///
/// ```swift
/// let result = try ChildProcess.run(URL(fileURLWithPath: "/bin/echo"), ["pear"])
/// #expect(result.status == 0 && result.output == "pear\n")
/// ```
public enum ChildProcess {
    /// What a program run to the end left: its exit status and what it wrote.
    public struct Result: Sendable {
        public var status: Int32
        /// Its standard output.
        public var output: String
        /// Its standard error.
        public var error: String
    }

    /// Runs `executable` with `arguments` and waits for it to exit, reading its
    /// standard output and then its standard error to their ends.
    ///
    /// It blocks the calling thread: call it from synchronous tests, never
    /// while holding a thread other work needs.
    /// - Parameter environment: the whole environment; the tests' own when `nil`.
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: outData, as: UTF8.self),
                      error: String(decoding: errData, as: UTF8.self))
    }
}
