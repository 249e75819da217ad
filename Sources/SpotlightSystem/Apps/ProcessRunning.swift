public import Foundation

/// What runs an app's commands: the seam in front of ``AppProcess``, so that
/// the launcher, maintenance and the file indexer can be given another runner
/// (a test's, which records the command and answers at once).
///
/// ``AppProcessRunner`` is the real one and every default.
///
/// ```swift
/// struct Echo: ProcessRunning {
///     func run(_ arguments: [String], environment: [String: String], timeout: TimeInterval, what: String) throws -> AppProcess.Result {
///         AppProcess.Result(status: 0, output: arguments.joined(separator: " "))
///     }
/// }
/// let launcher = AppLauncher(registry: registry, processRunner: Echo())
/// ```
public protocol ProcessRunning: Sendable {
    /// Runs `arguments` (the program first) with exactly `environment`, stopping
    /// it past `timeout` seconds; `what` names it in errors.
    /// - Throws: ``SystemSearchErrorCode/launchFailed`` when it cannot start or runs past `timeout`.
    func run(_ arguments: [String], environment: [String: String], timeout: TimeInterval, what: String) throws -> AppProcess.Result
}

/// Runs commands as processes of their own, through ``AppProcess/run(_:environment:timeout:what:)``.
///
/// ```swift
/// let result = try AppProcessRunner().run(["/bin/true"], environment: [:], timeout: 5, what: "true")
/// ```
public struct AppProcessRunner: ProcessRunning {
    public init() {}

    public func run(_ arguments: [String], environment: [String: String], timeout: TimeInterval, what: String) throws -> AppProcess.Result {
        try AppProcess.run(arguments, environment: environment, timeout: timeout, what: what)
    }
}
