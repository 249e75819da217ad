import Foundation
import TestSupport
@testable import SpotlightServer

/// The built `spotlight` binary, run as a child process by the tests.
enum SpotlightBinary {
    static var url: URL { BuiltExecutable.url(named: "spotlight") }

    /// The environment of a child reading the fixture's stores and runtime directory.
    static func environment(_ fixture: ServerFixture, _ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["OPENSPOTLIGHT_HOME"] = fixture.storesDirectory.path
        environment[ServicePaths.directoryVariable] = fixture.runtime.path
        environment["OPENSPOTLIGHT_OPEN_COMMAND"] = fixture.openerScript.path
        environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        environment.merge(extra) { $1 }
        return environment
    }

    /// Runs `spotlight ARGUMENTS` to the end: status, standard output, standard error.
    static func run(_ arguments: [String], environment: [String: String]) throws -> ChildProcess.Result {
        try ChildProcess.run(url, arguments, environment: environment)
    }
}

/// `spotlight serve` in a process of its own.
final class ServeProcess {
    let process = Process()
    let paths: ServicePaths
    private let output: URL

    init(_ fixture: ServerFixture, arguments: [String] = ["--port", "0", "--no-gnome-provider"], environment: [String: String] = [:]) throws {
        paths = fixture.paths
        output = fixture.url.appendingPathComponent("serve-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.executableURL = SpotlightBinary.url
        process.arguments = ["serve"] + arguments
        process.environment = SpotlightBinary.environment(fixture, environment)
        let log = try FileHandle(forWritingTo: output)
        process.standardOutput = log
        process.standardError = log
        try process.run()
        let client = ServiceClient(paths: paths, timeout: 1)
        for _ in 0..<300 {
            if client.isRunning(), FileManager.default.fileExists(atPath: paths.portFile.path) || !arguments.contains("--port") { return }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw ServiceError(.notRunning, "spotlight serve did not start: \(log)")
    }

    var log: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

    /// The log once it holds a whole line, or as it is after `timeout`:
    /// the service writes `--json`'s line once its listeners are up, which
    /// on a loaded machine can come just after its socket first answers.
    func logLine(timeout: TimeInterval = 20) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while !log.contains("\n"), Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        return log
    }
    var client: ServiceClient { ServiceClient(paths: paths) }
    var port: Int? { (try? String(contentsOf: paths.portFile, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } }

    /// Sends `signal` and waits for the exit status.
    @discardableResult
    func stop(_ signal: Int32 = SIGTERM) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit { if process.isRunning { stop(SIGKILL) } }
}

extension ServerFixture {
    /// An opener script (for `$OPENSPOTLIGHT_OPEN_COMMAND`) recording each URI to ``openerLog``.
    var openerScript: URL {
        let script = url.appendingPathComponent("opener.sh")
        if !FileManager.default.fileExists(atPath: script.path) {
            _ = FileManager.default.createFile(atPath: script.path, contents: Data("#!/bin/sh\nprintf '%s\\n' \"$1\" >> '\(openerLog.path)'\n".utf8),
                                           attributes: [.posixPermissions: 0o755])
        }
        return script
    }
}
