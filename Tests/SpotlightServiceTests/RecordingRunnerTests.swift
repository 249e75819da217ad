import Foundation
import Synchronization
import Testing
@testable import SpotlightIndex
@testable import SpotlightSystem
@testable import SpotlightService

/// A stand-in for the process runner: it records each command and answers
/// with a canned result, starting no process.
final class RecordingRunner: ProcessRunning {
    struct Call: Sendable {
        var arguments: [String]
        var environment: [String: String]
        var timeout: TimeInterval
        var what: String
    }

    private let answer: AppProcess.Result
    private let log = Mutex<[Call]>([])

    init(status: Int32 = 0, output: String = "") {
        answer = AppProcess.Result(status: status, output: output)
    }

    /// Every command run, in order.
    var calls: [Call] { log.withLock { $0 } }

    func run(_ arguments: [String], environment: [String: String], timeout: TimeInterval, what: String) throws -> AppProcess.Result {
        log.withLock { $0.append(Call(arguments: arguments, environment: environment, timeout: timeout, what: what)) }
        return answer
    }
}

/// The launcher and index maintenance with a ``RecordingRunner``: what each
/// hands the app's command, in process. `LauncherTests` and the service's
/// `MaintenanceTests` run real processes.
@Suite struct RecordingRunnerTests {
    /// The app's program does not exist: only the runner sees the command.
    static let program = "/nonexistent/openspotlight-notes"

    @Test func openingAnItemRunsTheLaunchCommandWithTheActivity() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        try root.registry.register(app("com.example.notes", "Notes", command: [Self.program, "--continue", "{activity}"]))
        let store = try root.store("com.example.notes", "work")
        try store.index([SearchableItem(uniqueIdentifier: "n1", attributes: ["title": .string("Groceries")])])
        let runner = RecordingRunner(output: "shown")

        let outcome = try AppLauncher(registry: root.registry, timeout: 7, processRunner: runner).open(reference: "com.example.notes/work/n1")
        #expect(outcome.output == "shown" && outcome.recordedSelection)
        let call = try #require(runner.calls.first)
        #expect(runner.calls.count == 1)
        #expect(Array(call.arguments.prefix(2)) == [Self.program, "--continue"])
        #expect(try UserActivityRecord(jsonData: Data(call.arguments[2].utf8)) == .openingItem("n1"))
        #expect(call.environment["OPENSPOTLIGHT_ACTIVITY"] == call.arguments[2])
        #expect(call.environment["OPENSPOTLIGHT_BUNDLE_ID"] == "com.example.notes")
        #expect(call.environment["OPENSPOTLIGHT_HOME"] == root.url.path)
        #expect(call.timeout == 7 && call.what == "Notes")
        #expect(try store.engagement(ofItem: "n1").selections == 1)
    }

    @Test func anAppThatFailsIsNotHandledAndRecordsNoSelection() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        try root.registry.register(app("com.example.notes", "Notes", command: [Self.program, "{activity}"]))
        let store = try root.store("com.example.notes", "work")
        try store.index([SearchableItem(uniqueIdentifier: "n1", attributes: ["title": .string("Groceries")])])
        let launcher = AppLauncher(registry: root.registry, processRunner: RecordingRunner(status: 3, output: "no such note"))
        do {
            _ = try launcher.open(reference: "com.example.notes/work/n1")
            Issue.record("a failed launch must throw")
        } catch let error as SystemSearchError {
            #expect(error.code == .notHandled && "\(error)".contains("no such note"), "\(error)")
        }
        #expect(try store.engagement(ofItem: "n1").selections == 0)
    }

    @Test func maintenanceHandsALostStoreToTheIndexExtension() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        try root.registry.register(AppRegistration(bundleIdentifier: "com.example.notes", displayName: "Notes", launchCommand: [Self.program],
                                                   indexExtensionCommand: [Self.program, "extension", "{request}"]))
        try root.store("com.example.notes").index([SearchableItem(uniqueIdentifier: "n1", attributes: ["title": .string("Note")])])
        try FileManager.default.removeItem(at: root.url.appendingPathComponent("com.example.notes/default.sqlite"))
        let runner = RecordingRunner(output: "indexing")

        let deliveries = try IndexMaintenance(registry: root.registry, processRunner: runner).deliverPendingRequests()
        #expect(deliveries.map(\.succeeded) == [true] && deliveries.first?.outcome == "indexing")
        #expect(deliveries.first?.acknowledged == false, "the runner did not index: the store still asks")
        let call = try #require(runner.calls.first)
        #expect(runner.calls.count == 1)
        #expect(Array(call.arguments.prefix(2)) == [Self.program, "extension"])
        #expect(call.environment[IndexRequest.environmentKey] == call.arguments[2])
        let request = try JSONDecoder().decode(IndexRequest.self, from: Data(call.arguments[2].utf8))
        #expect(request.kind == .reindexAll && request.indexName == "default" && request.reason == "storeMissing")
        #expect(call.what == "Notes's index extension")
    }
}
