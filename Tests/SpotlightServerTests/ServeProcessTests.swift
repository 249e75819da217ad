import Foundation
@testable import SpotlightIndex
import Testing
import TestSupport
@testable import SpotlightServer

/// `spotlight serve`, `spotlight search` and `spotlight install` as processes.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ServeProcessTests {
    /// Every stored item and the files beside the stores (opening checks each store: a
    /// damaged one would be moved aside and come back empty).
    func storeDigests(_ fixture: ServerFixture) throws -> [String: [StoredItem?]] {
        var contents: [String: [StoredItem?]] = [:]
        for (bundle, identifiers) in [(ServerFixture.grocer, ["p-pear", "p-peach", "shop"]), (ServerFixture.people, ["e1"])] {
            let store = try fixture.store(bundle)
            contents[bundle] = try identifiers.map { try store.item(withIdentifier: $0) }
            let files = try FileManager.default.contentsOfDirectory(atPath: fixture.storesDirectory.appendingPathComponent(bundle).path)
            #expect(!files.contains { $0.contains(".corrupt-") }, "\(files)")
            #expect(store.movedAsideFile == nil)
            #expect(try store.pendingReindex == nil)
        }
        return contents
    }

    func searchCount(_ server: ServeProcess, via channel: String) throws -> Int {
        let metrics = String(decoding: try server.client.request("GET", "/v1/metrics").body, as: UTF8.self)
        let line = metrics.split(separator: "\n").first { $0.hasPrefix(#"openspotlight_search_duration_seconds_count{via="\#(channel)"}"#) }
        return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
    }

    @Test func theServiceRestartsCleanlyAfterSIGKILLWithNoStoreTouched() throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        let before = try storeDigests(fixture)
        let first = try ServeProcess(fixture)
        #expect(try first.client.search("pear").groups.count == 2)
        #expect(first.stop(SIGKILL) == SIGKILL)
        #expect(FileManager.default.fileExists(atPath: fixture.paths.socket.path), "a killed service leaves its socket")
        #expect(!first.client.isRunning())

        // `spotlight search` does not hang on the dead socket: it searches itself.
        let local = try SpotlightBinary.run(["search", "pear"], environment: SpotlightBinary.environment(fixture))
        #expect(local.status == 0 && local.output.contains("com.example.grocer/default/p-pear"), "\(local.error)")

        let second = try ServeProcess(fixture, arguments: ["--port", "0", "--no-gnome-provider", "--json"])
        #expect(try second.client.search("pear").groups.first?.results.first?.reference == "com.example.grocer/default/p-pear")
        let line = second.logLine()
        let said = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        #expect(said["socket"] as? String == fixture.paths.socket.path && said["root"] as? String == fixture.storesDirectory.path)
        #expect(said["page"] as? String == "http://127.0.0.1:\(try #require(second.port))/")
        #expect(second.stop(SIGTERM) == 0, "a graceful stop exits 0: \(second.log)")
        #expect(!FileManager.default.fileExists(atPath: fixture.paths.socket.path), "and removes the socket")
        #expect(try storeDigests(fixture) == before, "serving, being killed and restarting changed nothing in the stores")
    }

    @Test func spotlightSearchUsesTheRunningServiceForTheSameStores() throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        let server = try ServeProcess(fixture)
        defer { server.stop() }
        let environment = SpotlightBinary.environment(fixture)
        let viaService = try SpotlightBinary.run(["search", "--json", "pear"], environment: environment)
        #expect(viaService.status == 0, "\(viaService.error)")
        #expect(try searchCount(server, via: "http") == 1, "the command asked the service")
        let found = try JSONDecoder().decode(API.SearchResponse.self, from: Data(viaService.output.utf8))
        #expect(found.groups.first?.results.first?.reference == "com.example.grocer/default/p-pear" && found.root == fixture.storesDirectory.path)

        let text = try SpotlightBinary.run(["search", "pear"], environment: environment)
        #expect(text.output.contains("Grocer    [Search in App: spotlight open --search-in-app com.example.grocer pear]"))
        #expect(text.output.contains("★★★★☆  1.20"), "\(text.output)")
        #expect(try searchCount(server, via: "http") == 2)

        _ = try SpotlightBinary.run(["search", "--no-service", "pear"], environment: environment)
        #expect(try searchCount(server, via: "http") == 2, "--no-service searches in the process")
        // A service over other stores is not asked.
        let other = try ServerFixture()
        defer { other.cleanUp() }
        var elsewhere = SpotlightBinary.environment(other)
        elsewhere[ServicePaths.directoryVariable] = fixture.runtime.path
        let mismatched = try SpotlightBinary.run(["search", "--json", "pear"], environment: elsewhere)
        #expect(try JSONDecoder().decode(API.SearchResponse.self, from: Data(mismatched.output.utf8)).root == other.storesDirectory.path)
    }

    @Test func openActionRunsTheResultsOwnActionThroughTheOpener() throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        let environment = SpotlightBinary.environment(fixture)
        let called = try SpotlightBinary.run(["open", "--action", "call", "com.example.people/default/e1"], environment: environment)
        #expect(called.status == 0 && called.output.contains("Call +33 1 42 68 53 00"), "\(called.error)")
        let refused = try SpotlightBinary.run(["open", "--action", "navigate", "com.example.people/default/e1"], environment: environment)
        #expect(refused.status == 1 && refused.error.contains("offers no navigate action; it offers call, email"))
        #expect(fixture.lines(fixture.openerLog) == ["tel:+33142685300"])
    }

    @Test func installWritesTheDesktopFilesAndUninstallRemovesThem() throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        let environment = SpotlightBinary.environment(fixture, ["XDG_CONFIG_HOME": fixture.url.appendingPathComponent("config").path,
                                                                 "XDG_DATA_HOME": fixture.url.appendingPathComponent("data").path])
        let installed = try SpotlightBinary.run(["install", "--no-systemctl", "--port", "7790"], environment: environment)
        #expect(installed.status == 0, "\(installed.error)")
        let unit = fixture.url.appendingPathComponent("config/systemd/user/openspotlight.service")
        let bus = fixture.url.appendingPathComponent("data/dbus-1/services/org.openspotlight.SearchProvider.service")
        let provider = fixture.url.appendingPathComponent("data/gnome-shell/search-providers/org.openspotlight.Spotlight.search-provider.ini")
        let desktop = fixture.url.appendingPathComponent("data/applications/org.openspotlight.Spotlight.desktop")
        let program = SpotlightBinary.url.resolvingSymlinksInPath().path
        let unitText = try String(contentsOf: unit, encoding: .utf8)
        #expect(unitText.contains("ExecStart=\(program) serve --port 7790\n"), "\(unitText)")
        #expect(unitText.contains("Environment=\"OPENSPOTLIGHT_HOME=\(fixture.storesDirectory.path)\""))
        #expect(unitText.contains("[Install]\nWantedBy=default.target"))
        #expect(try String(contentsOf: bus, encoding: .utf8) == """
            [D-BUS Service]
            Name=org.openspotlight.SearchProvider
            Exec=/usr/bin/env OPENSPOTLIGHT_HOME=\(fixture.storesDirectory.path) OPENSPOTLIGHT_RUNTIME_DIR=\(fixture.runtime.path) XDG_DATA_HOME=\(fixture.url.appendingPathComponent("data").path) \(program) serve --port 7790
            SystemdService=openspotlight.service

            """)
        #expect(try String(contentsOf: provider, encoding: .utf8) == """
            [Shell Search Provider]
            DesktopId=org.openspotlight.Spotlight.desktop
            BusName=org.openspotlight.SearchProvider
            ObjectPath=/org/openspotlight/SearchProvider
            Version=2

            """)
        #expect(try String(contentsOf: desktop, encoding: .utf8).contains("Exec=xdg-open http://127.0.0.1:7790/\n"))
        for line in [unit, bus, provider, desktop].map(\.path) { #expect(installed.output.contains("wrote \(line)")) }
        #expect(try SpotlightBinary.run(["install", "--no-systemctl", "--port", "7790"], environment: environment).status == 0, "installing again")

        let listed = try SpotlightBinary.run(["install", "--no-systemctl", "--port", "7790", "--json"], environment: environment)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [String: Any])
        #expect(object["written"] as? [String] == [unit, bus, provider, desktop].map(\.path) && object["page"] as? String == "http://127.0.0.1:7790/")

        let removed = try SpotlightBinary.run(["uninstall", "--no-systemctl"], environment: environment)
        #expect(removed.status == 0 && removed.output.split(separator: "\n").filter { $0.hasPrefix("removed ") }.count == 4, "\(removed.output)")
        for file in [unit, bus, provider, desktop] { #expect(!FileManager.default.fileExists(atPath: file.path)) }
        #expect(try SpotlightBinary.run(["uninstall", "--no-systemctl"], environment: environment).output.contains("nothing to remove"))
        #expect(try SpotlightBinary.run(["uninstall", "--no-systemctl", "--json"], environment: environment).output.contains(#""removed" : ["#))
    }
}
