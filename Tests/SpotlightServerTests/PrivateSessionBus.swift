import Foundation
import TestSupport

/// A private `dbus-daemon --session` for one test, on a socket in the test's
/// directory, and `gdbus call` against it. Stopped by `stop()` (and deinit).
final class PrivateSessionBus {
    let process = Process()
    let address: String
    let environment: [String: String]

    /// Starts the daemon with `environment` (what processes it activates inherit).
    init(directory: URL, environment: [String: String]) throws {
        let socket = directory.appendingPathComponent("bus")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--session", "--nofork", "--print-address=1", "--address=unix:path=\(socket.path)"]
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 0x0A { line.append(first) }
        address = String(decoding: line, as: UTF8.self)
        guard address.hasPrefix("unix:") else {
            process.terminate()
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "dbus-daemon printed no address"])
        }
        var withBus = environment
        withBus["DBUS_SESSION_BUS_ADDRESS"] = address
        self.environment = withBus
    }

    /// `gdbus call` on the provider (or another object): standard output, or the error's text.
    func call(_ method: String, _ arguments: [String], destination: String = "org.openspotlight.SearchProvider",
              path: String = "/org/openspotlight/SearchProvider", interface: String = "org.gnome.Shell.SearchProvider2") throws -> (ok: Bool, output: String) {
        let gdbus = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/gdbus"),
            ["call", "--session", "--timeout", "20", "--dest", destination, "--object-path", path, "--method", "\(interface).\(method)"] + arguments,
            environment: environment)
        let text = gdbus.status == 0 ? gdbus.output : gdbus.error
        return (gdbus.status == 0, text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Asks the bus itself.
    func bus(_ method: String, _ arguments: [String]) throws -> String {
        try call(method, arguments, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus").output
    }

    /// Waits until `name` has an owner on the bus.
    func waitForOwner(_ name: String, seconds: Double = 20) throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try bus("NameHasOwner", [name]) == "(true,)" { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }

    /// The process id of the connection owning `name`.
    func owner(of name: String) throws -> Int32? {
        let answer = try bus("GetConnectionUnixProcessID", [name])   // (uint32 1234,)
        return answer.split(separator: " ").last.flatMap { Int32($0.trimmingCharacters(in: CharacterSet(charactersIn: ",)"))) }
    }

    /// Kills the daemon: children of the test runner inherit its blocked signals, SIGTERM among them.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { stop() }

    /// Whether this machine has what the D-Bus tests need (`.ci/run` installs both).
    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon") && FileManager.default.isExecutableFile(atPath: "/usr/bin/gdbus")
    }
}

/// Polls `condition` for up to `seconds`.
func eventually(_ seconds: Double = 20, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.05)
    }
    return try condition()
}
