import Foundation
import Synchronization
import Testing
import Corpora
import SpotlightQuery
import TestSupport
@testable import SpotlightIndex

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}

/// A file of the tests' corpora, found as ``Corpora`` finds them (`OPENSPOTLIGHT_CORPORA`,
/// `../shared/corpora`, `.build/corpora`); when missing, the error says to run `Scripts/make-corpora.py`.
func corpusFile(_ name: String) throws -> URL {
    try Corpora.file(name)
}

/// The lines of a gzipped corpus file (`gzip -dc`).
func gunzipLines(_ file: URL) throws -> [Data] {
    try Corpora.lines(ofGzipped: file)
}

func options(clock: TestClock? = nil, _ configure: (inout StoreOptions) -> Void = { _ in }) -> StoreOptions {
    var options = StoreOptions()
    if let clock { options.clock = { clock.now } }
    configure(&options)
    return options
}

func memoryStore(clock: TestClock? = nil, _ configure: (inout StoreOptions) -> Void = { _ in }) throws -> SpotlightStore {
    try SpotlightStore.inMemory(options: options(clock: clock, configure))
}

func fileStore(_ dir: ScratchDirectory, bundle: String = "org.openspotlight.tests", index: String = "shared",
               clock: TestClock? = nil, _ configure: (inout StoreOptions) -> Void = { _ in }) throws -> SpotlightStore {
    try SpotlightStore(bundleIdentifier: bundle, indexName: index, location: .directory(dir.url),
                       options: options(clock: clock, configure))
}

/// An item with a title and optional other text attributes.
func item(_ id: String, title: String? = nil, domain: String? = nil, _ attributes: [String: AttributeValue] = [:]) -> SearchableItem {
    var all = attributes
    if let title { all["title"] = .string(title) }
    return SearchableItem(uniqueIdentifier: id, domainIdentifier: domain, attributes: all)
}

extension SpotlightStore {
    /// Identifiers of every live item, sorted.
    func identifiers() throws -> [String] {
        try allItems().map(\.item.uniqueIdentifier).sorted()
    }

    /// Identifiers of the results for `text`, in rank order.
    func ids(_ text: String, limit: Int = 50) throws -> [String] {
        try search(text, limit: limit).map(\.item.uniqueIdentifier)
    }
}

/// A running helper process whose output lines can be awaited.
final class HelperProcess: @unchecked Sendable { // @unchecked: `lines` is guarded by `lock`
    let process = Process()
    private let lock = NSLock()
    private var lines: [String] = []
    private var buffer = Data()
    private let errorPipe = Pipe()

    init(_ arguments: [String]) throws {
        process.executableURL = BuiltExecutable.url(named: "spotlight-store-helper")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = errorPipe
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.lock()
            self.buffer.append(data)
            while let newline = self.buffer.firstIndex(of: 0x0A) {
                self.lines.append(String(decoding: self.buffer[self.buffer.startIndex..<newline], as: UTF8.self))
                self.buffer = Data(self.buffer[(newline + 1)...])
            }
            self.lock.unlock()
        }
        try process.run()
    }

    var output: [String] { lock.lock(); defer { lock.unlock() }; return lines }
    var errorOutput: String { String(decoding: errorPipe.fileHandleForReading.availableData, as: UTF8.self) }

    /// Waits until a line satisfies `predicate`, or the timeout.
    @discardableResult
    func waitForLine(timeout: TimeInterval = 60, _ predicate: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if output.contains(where: predicate) { return true }
            if !process.isRunning && !output.contains(where: predicate) { Thread.sleep(forTimeInterval: 0.05); return output.contains(where: predicate) }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// A query's answers three ways, which must agree: the evaluator over
/// every item, the rows read and checked (`items(matching:)`), and the
/// identifiers, from the index where it can (`queryIdentifiers`), with
/// how many rows that last read.
struct QueryAnswers {
    let reference: [String]
    let rowsChecked: [String]
    let identifiers: [String]
    let rowsRead: Int

    init(_ query: String, in store: SpotlightStore) throws {
        let evaluator = QueryEvaluator(now: Date(), timeZone: TimeZone(identifier: "UTC")!)
        let expression = try QueryParser.parse(query)
        reference = try store.allItems().map(\.item).filter { evaluator.matches(expression, QueryItem(item: $0)) }.map(\.uniqueIdentifier)
        rowsChecked = try store.items(matching: query).map(\.uniqueIdentifier)
        let (identifiers, outcome) = try store.queryIdentifiers(expression, limit: 20, firstWindow: 1_024)
        self.identifiers = identifiers
        rowsRead = outcome.candidatesChecked
    }
}
