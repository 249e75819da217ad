public import Foundation
import SpotlightDBus

/// The files that make the service part of the desktop, which
/// `spotlight install` writes and `spotlight uninstall` removes:
///
/// | file | what reads it |
/// | --- | --- |
/// | `$XDG_CONFIG_HOME/systemd/user/openspotlight.service` | systemd: starts the service with the session |
/// | `$XDG_DATA_HOME/dbus-1/services/org.openspotlight.SearchProvider.service` | the session bus: starts it on GNOME Shell's first search |
/// | `$XDG_DATA_HOME/gnome-shell/search-providers/org.openspotlight.Spotlight.search-provider.ini` | GNOME Shell: the provider |
/// | `$XDG_DATA_HOME/applications/org.openspotlight.Spotlight.desktop` | the app the provider belongs to (opens the page) |
///
/// ```swift
/// let files = DesktopIntegration(executable: URL(fileURLWithPath: "/usr/local/bin/spotlight"), port: 7780)
/// for written in try files.install() { print(written.path) }
/// ```
///
/// GNOME Shell reads search providers from the system data directories
/// (`$XDG_DATA_DIRS`) only: ``providerDirectory`` can point there (as root,
/// `/usr/local/share/gnome-shell/search-providers`).
public struct DesktopIntegration: Sendable {
    public static let unitName = "openspotlight.service"
    public static let desktopID = "org.openspotlight.Spotlight.desktop"
    public static let providerFileName = "org.openspotlight.Spotlight.search-provider.ini"

    /// The `spotlight` binary the service runs.
    public var executable: URL
    /// The port of the search page (nil: the socket only; GNOME's "more results" then has no page to open).
    public var port: Int?
    public var configHome: URL
    public var dataHome: URL
    /// Where the provider's `.ini` goes (default `$XDG_DATA_HOME/gnome-shell/search-providers`).
    public var providerDirectory: URL
    /// Variables the service must run with (the store root when it is not the default).
    public var environment: [String: String]

    public init(executable: URL, port: Int?, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.executable = executable
        self.port = port
        let home = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory(), isDirectory: true)
        func directory(_ variable: String, _ fallback: String) -> URL {
            if let value = environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value, isDirectory: true) }
            return home.appendingPathComponent(fallback, isDirectory: true)
        }
        configHome = directory("XDG_CONFIG_HOME", ".config")
        dataHome = directory("XDG_DATA_HOME", ".local/share")
        providerDirectory = dataHome.appendingPathComponent("gnome-shell/search-providers", isDirectory: true)
        self.environment = ["OPENSPOTLIGHT_HOME", "XDG_DATA_HOME", "OPENSPOTLIGHT_RUNTIME_DIR"].reduce(into: [:]) { kept, name in
            if let value = environment[name], !value.isEmpty { kept[name] = value }
        }
    }

    public var unitFile: URL { configHome.appendingPathComponent("systemd/user/\(Self.unitName)") }
    public var busServiceFile: URL { dataHome.appendingPathComponent("dbus-1/services/\(GnomeSearchProvider.busName).service") }
    public var providerFile: URL { providerDirectory.appendingPathComponent(Self.providerFileName) }
    public var desktopFile: URL { dataHome.appendingPathComponent("applications/\(Self.desktopID)") }

    /// Every file, in the order they are written.
    public var files: [URL] { [unitFile, busServiceFile, providerFile, desktopFile] }

    /// The command line that runs the service, quoted for systemd and D-Bus.
    func serveCommand() throws -> String {
        let path = executable.path
        guard path.hasPrefix("/"), Self.isPlain(path) else {
            throw ServiceError(.installFailed, "the program path \(path.debugDescription) cannot be written into a unit file; install spotlight somewhere plainer")
        }
        let program = path.contains(" ") ? "\"\(path)\"" : path
        return program + " serve" + (port.map { " --port \($0)" } ?? "")
    }

    /// Whether a path or value can go into unit, D-Bus and desktop files as it is (in double quotes at most).
    static func isPlain(_ text: String) -> Bool {
        !text.contains { "\"\\$%`'\n\r".contains($0) || $0.asciiValue.map { $0 < 0x20 } == true }
    }

    /// The contents of each file.
    func contents() throws -> [(URL, String)] {
        let command = try serveCommand()
        let service = ["Type=exec", "ExecStart=\(command)"]
            + (try environment.keys.sorted().map { name in
                let value = environment[name]!
                guard Self.isPlain(value) else { throw ServiceError(.installFailed, "$\(name) (\(value.debugDescription)) cannot be written into a unit file") }
                return "Environment=\"\(name)=\(value)\""
            })
            + ["Restart=on-failure", "RestartSec=2"]
        let unit = """
            [Unit]
            Description=OpenSpotlight search service (system search, search page, GNOME Shell search provider)

            [Service]
            \(service.joined(separator: "\n"))

            [Install]
            WantedBy=default.target

            """
        // Without systemd the bus runs Exec= with its own environment: the variables go on the line.
        let assignments = environment.keys.sorted().map { "\($0)=\(environment[$0]!)" }
        let busCommand = assignments.isEmpty ? command : (["/usr/bin/env"] + assignments.map { $0.contains(" ") ? "\"\($0)\"" : $0 } + [command]).joined(separator: " ")
        let bus = """
            [D-BUS Service]
            Name=\(GnomeSearchProvider.busName)
            Exec=\(busCommand)
            SystemdService=\(Self.unitName)

            """
        let provider = """
            [Shell Search Provider]
            DesktopId=\(Self.desktopID)
            BusName=\(GnomeSearchProvider.busName)
            ObjectPath=\(GnomeSearchProvider.objectPath)
            Version=2

            """
        let page = port.map { "xdg-open http://127.0.0.1:\($0)/" } ?? "\(command)"
        let desktop = """
            [Desktop Entry]
            Type=Application
            Name=Spotlight Search
            Comment=Search every app's content, as Spotlight does
            Exec=\(page)
            Icon=system-search
            Terminal=false
            Categories=Utility;
            Keywords=search;spotlight;find;

            """
        return [(unitFile, unit), (busServiceFile, bus), (providerFile, provider), (desktopFile, desktop)]
    }

    /// Writes every file (replacing older ones); returns them.
    @discardableResult
    public func install() throws -> [URL] {
        let manager = FileManager.default
        var written: [URL] = []
        for (file, text) in try contents() {
            do {
                try manager.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: file, options: .atomic)
            } catch {
                throw ServiceError(.installFailed, "cannot write \(file.path): \(error.localizedDescription)")
            }
            written.append(file)
        }
        return written
    }

    /// Removes every file that is there; returns those removed.
    @discardableResult
    public func uninstall() throws -> [URL] {
        var removed: [URL] = []
        for file in files where FileManager.default.fileExists(atPath: file.path) {
            do { try FileManager.default.removeItem(at: file) } catch {
                throw ServiceError(.installFailed, "cannot remove \(file.path): \(error.localizedDescription)")
            }
            removed.append(file)
        }
        return removed
    }
}
