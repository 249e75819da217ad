import ArgumentParser
import Foundation
import SpotlightServer

/// `spotlight install` / `spotlight uninstall`: the service as part of the desktop.
struct Install: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "install",
        abstract: "Make the desktop start the service: systemd user unit, D-Bus activation, GNOME Shell search provider.",
        discussion: """
            Writes the systemd user unit, the session bus's activation file, the GNOME Shell \
            provider's .ini and a .desktop file under $XDG_CONFIG_HOME and $XDG_DATA_HOME, then \
            enables and starts the unit (systemctl --user). GNOME Shell reads providers from the \
            system data directories only: as root, pass --provider-dir /usr/local/share/gnome-shell/search-providers.

            Example:
              spotlight install                  # the page at http://127.0.0.1:7780/
              spotlight install --port 0 --no-systemctl
            """
    )

    @Option(help: "The search page's port on 127.0.0.1 (0: no page, the socket only).")
    var port = 7780

    @Option(name: .customLong("provider-dir"), help: "Where GNOME Shell's provider file goes.")
    var providerDirectory: String?

    @Flag(name: .customLong("no-systemctl"), help: "Only write the files; do not run systemctl --user.")
    var noSystemctl = false

    @Flag(help: "Print the files written as JSON.")
    var json = false

    func run() throws {
        var files = DesktopIntegration(executable: Self.executable(), port: port == 0 ? nil : port)
        if let providerDirectory { files.providerDirectory = URL(fileURLWithPath: providerDirectory, isDirectory: true) }
        let written = Output.guarded { try files.install() }
        if json {
            if !noSystemctl { Self.systemctl(["daemon-reload"], quiet: true); Self.systemctl(["enable", "--now", DesktopIntegration.unitName], quiet: true) }
            return print(try Output.json(["written": written.map(\.path), "page": port == 0 ? NSNull() : "http://127.0.0.1:\(port)/" as Any]))
        }
        for file in written { print("wrote \(file.path)") }
        if !noSystemctl {
            Self.systemctl(["daemon-reload"])
            Self.systemctl(["enable", "--now", DesktopIntegration.unitName])
        }
        print("the service starts with your session\(port == 0 ? "" : "; the search page is http://127.0.0.1:\(port)/")")
        if providerDirectory == nil {
            print("note: GNOME Shell reads search providers from $XDG_DATA_DIRS only; to show results there, run as root:")
            print("  spotlight install --provider-dir /usr/local/share/gnome-shell/search-providers --no-systemctl")
        }
    }

    /// This program, resolved (the unit must not depend on $PATH).
    static func executable() -> URL {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: resolved)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    }

    /// Runs `systemctl --user …`; a session without a user manager is said (unless `quiet`), not fatal.
    static func systemctl(_ arguments: [String], quiet: Bool = false) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["systemctl", "--user"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
            process.waitUntilExit()
            if process.terminationStatus != 0 && !quiet {
                print("note: systemctl --user \(arguments.joined(separator: " ")) failed (no user session manager?); start the service with: spotlight serve")
            }
        } catch {
            if !quiet { print("note: systemctl is not available; start the service with: spotlight serve") }
        }
    }
}

struct Uninstall: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "uninstall",
        abstract: "Undo `spotlight install`: stop the service and remove its desktop files (stores are kept).",
        discussion: """
            Example:
              spotlight uninstall
            """
    )

    @Option(name: .customLong("provider-dir"), help: "Where GNOME Shell's provider file was put.")
    var providerDirectory: String?

    @Flag(name: .customLong("no-systemctl"), help: "Only remove the files; do not run systemctl --user.")
    var noSystemctl = false

    @Flag(help: "Print the files removed as JSON.")
    var json = false

    func run() throws {
        var files = DesktopIntegration(executable: Install.executable(), port: nil)
        if let providerDirectory { files.providerDirectory = URL(fileURLWithPath: providerDirectory, isDirectory: true) }
        if !noSystemctl { Install.systemctl(["disable", "--now", DesktopIntegration.unitName], quiet: json) }
        let removed = Output.guarded { try files.uninstall() }
        if json {
            if !noSystemctl { Install.systemctl(["daemon-reload"], quiet: true) }
            return print(try Output.json(["removed": removed.map(\.path)]))
        }
        for file in removed { print("removed \(file.path)") }
        if removed.isEmpty { print("nothing to remove: the service was not installed") }
        if !noSystemctl { Install.systemctl(["daemon-reload"]) }
    }
}
