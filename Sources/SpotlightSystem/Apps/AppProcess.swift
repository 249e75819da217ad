public import Foundation

/// Runs an app's command to its end, with a time limit, collecting its
/// output: how the system side launches apps, their index extensions and
/// importers.
///
/// ```swift
/// let result = try AppProcess.run(["/usr/bin/notes", "--continue", json], environment: env, timeout: 30, what: "Notes")
/// if result.status != 0 { print(result.output) }
/// ```
public enum AppProcess {
    /// How the command ended.
    public struct Result: Sendable {
        /// Its exit status.
        public var status: Int32
        /// What it printed (standard output and error, interleaved).
        public var output: String

        /// A result as a ``ProcessRunning`` other than ``AppProcessRunner`` reports it.
        public init(status: Int32, output: String) {
            self.status = status
            self.output = output
        }
    }

    /// Runs `arguments` (the program first: a path, or a name looked up on `PATH`).
    /// - Throws: ``SystemSearchErrorCode/launchFailed`` when it cannot start or runs past `timeout`.
    public static func run(_ arguments: [String], environment: [String: String], timeout: TimeInterval, what: String) throws -> Result {
        guard let program = arguments.first else {
            throw SystemSearchError(.launchFailed, "\(what) has an empty launch command")
        }
        let process = Process()
        process.executableURL = try executable(program, environment: environment, what: what)
        process.arguments = Array(arguments.dropFirst())
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do { try process.run() } catch {
            throw SystemSearchError(.launchFailed, "cannot start \(what) (\(program)): \(error.localizedDescription); check its launch command")
        }
        // Read while it runs, so that a chatty app never blocks on a full pipe.
        let collected = Collected()
        let reader = Thread { collected.set(output.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            _ = finished.wait(timeout: .now() + 5)
            throw SystemSearchError(.launchFailed, "\(what) did not finish within \(Int(timeout)) seconds and was stopped")
        }
        // A child the app left running may hold the pipe open: do not wait for it.
        let text = collected.wait(seconds: 2) ? String(decoding: collected.data, as: UTF8.self) : ""
        return Result(status: process.terminationStatus, output: text)
    }

    /// The program's file: a path as given, else the first match on `PATH`.
    static func executable(_ program: String, environment: [String: String], what: String) throws -> URL {
        if program.contains("/") {
            guard FileManager.default.isExecutableFile(atPath: program) else {
                throw SystemSearchError(.launchFailed, "\(what)'s program \(program) is not an executable file; fix its launch command")
            }
            return URL(fileURLWithPath: program)
        }
        for directory in (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(program)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw SystemSearchError(.launchFailed, "\(what)'s program \(program) is not on PATH; give its full path in the launch command")
    }

    private final class Collected: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private(set) var data = Data()
        func set(_ data: Data) {
            self.data = data
            done.signal()
        }
        func wait(seconds: Double) -> Bool { done.wait(timeout: .now() + seconds) == .success }
    }
}
