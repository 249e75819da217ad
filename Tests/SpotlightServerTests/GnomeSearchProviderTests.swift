import Foundation
import Testing
import TestSupport
@testable import SpotlightIndex
@testable import SpotlightServer

/// GNOME Shell's calls (`org.gnome.Shell.SearchProvider2`) on a private session bus, made with `gdbus call`.
@Suite(.serialized, .timeLimit(.minutes(10)), .enabled(if: PrivateSessionBus.isAvailable, "needs dbus-daemon and gdbus (.ci/run installs them)"))
struct GnomeSearchProviderTests {
    @Test func everyMethodGnomeShellCallsIsAnswered() throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        let bus = try PrivateSessionBus(directory: fixture.url, environment: SpotlightBinary.environment(fixture))
        defer { bus.stop() }
        let server = try ServeProcess(fixture, arguments: ["--port", "0"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        defer { server.stop() }
        #expect(try bus.waitForOwner("org.openspotlight.SearchProvider"), "\(server.log)")

        let initial = try bus.call("GetInitialResultSet", ["['pear']"])
        // Peach and the Paris shop are one typo away from "pear" as a prefix: found, under the pear.
        #expect(initial.output == "(['com.example.grocer/default/p-pear', 'com.example.grocer/default/p-peach', 'com.example.grocer/default/shop', 'com.example.people/default/e1'],)", "\(initial)")
        let narrowed = try bus.call("GetSubsearchResultSet", ["['com.example.grocer/default/p-pear', 'com.example.people/default/e1']", "['pear', 'conf']"])
        #expect(narrowed.output == "(['com.example.grocer/default/p-pear'],)", "\(narrowed)")
        #expect(try bus.call("GetInitialResultSet", ["['zzzz']"]).output == "(@as [],)")
        #expect(try bus.call("GetInitialResultSet", ["@as []"]).output == "(@as [],)")

        let metas = try bus.call("GetResultMetas", ["['com.example.grocer/default/p-pear', 'com.example.people/default/e1', 'com.example.grocer/default/gone']"])
        #expect(metas.output.hasPrefix("([{'id': <'com.example.grocer/default/p-pear'>, 'name': <'Pear'>, 'description': <'Grocer — Conference pears from the Loire'>, 'gicon': <'system-search'>"), "\(metas)")
        #expect(metas.output.contains("'name': <'Zoë Pearson'>") && !metas.output.contains("gone"), "a result that is not stored has no meta")

        #expect(try bus.call("ActivateResult", ["com.example.grocer/default/p-pear", "['pear']", "0"]).ok)
        #expect(eventually { fixture.lines(fixture.appLog).count == 1 }, "the app was launched with the result")
        let received = try UserActivityRecord(jsonData: Data(try #require(fixture.lines(fixture.appLog).first).utf8))
        #expect(received.userInfo["kCSSearchableItemActivityIdentifier"] == .string("p-pear"))

        #expect(try bus.call("LaunchSearch", ["['pear', 'tart']", "0"]).ok)
        let page = "http://127.0.0.1:\(try #require(server.port))/?q=pear%20tart"
        #expect(eventually { fixture.lines(fixture.openerLog) == [page] }, "the search page opened with the terms: \(fixture.lines(fixture.openerLog))")

        let introspection = try bus.call("Introspect", [], interface: "org.freedesktop.DBus.Introspectable")
        #expect(introspection.output.contains(#"<method name="GetResultMetas">"#))
        let wrong = try bus.call("GetInitialResultSet", ["'pear'"])
        #expect(!wrong.ok, "a string where GNOME sends an array of strings is an error, not a crash")
        #expect(try bus.call("GetInitialResultSet", ["['pear']"]).ok, "and the provider still answers")
        #expect(try bus.call("Nothing", []).ok == false)
    }

    /// `spotlight install`'s activation file: the session bus starts the service on GNOME Shell's first call.
    @Test func theSessionBusStartsTheInstalledService() async throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        let port = try await SpotlightServer.freeLoopbackPort()
        var environment = SpotlightBinary.environment(fixture)
        environment["XDG_DATA_HOME"] = fixture.url.appendingPathComponent("data").path
        environment["XDG_CONFIG_HOME"] = fixture.url.appendingPathComponent("config").path
        let installed = try SpotlightBinary.run(["install", "--no-systemctl", "--port", String(port)], environment: environment)
        #expect(installed.status == 0, "\(installed.error)")
        // The bus knows nothing of the stores: the activation file's command line says where they are.
        var busEnvironment = environment
        busEnvironment.removeValue(forKey: "OPENSPOTLIGHT_HOME")
        busEnvironment.removeValue(forKey: ServicePaths.directoryVariable)
        let bus = try PrivateSessionBus(directory: fixture.url, environment: busEnvironment)
        defer { bus.stop() }
        var started: Int32?
        defer { if let started { kill(started, SIGKILL) } }

        let initial = try bus.call("GetInitialResultSet", ["['zoe']"])
        started = try bus.owner(of: "org.openspotlight.SearchProvider")
        #expect(initial.output == "(['com.example.people/default/e1'],)", "\(initial)")
        #expect(started != nil && ServiceClient(paths: fixture.paths).isRunning(), "the activated service also serves the socket")
        #expect(try bus.call("LaunchSearch", ["['zoe']", "0"]).ok)
        #expect(eventually { fixture.lines(fixture.openerLog) == ["http://127.0.0.1:\(port)/?q=zoe"] }, "\(fixture.lines(fixture.openerLog))")
    }
}
