public import Foundation
import OpenCoreSpotlight

/// What the example apps share: a name, a bundle identifier, and the
/// commands a console app answers — the Linux counterparts of an iPhone
/// app's screens and app delegate.
public protocol ExampleApp: Sendable {
    /// The name results are grouped under.
    var displayName: String { get }
    /// The bundle identifier its indexes live under.
    var bundleIdentifier: String { get }
    /// The activity types it continues (its `NSUserActivityTypes`).
    var activityTypes: [String] { get }
    /// Whether it offers "Search in App" (`CoreSpotlightContinuation`).
    var supportsSearchContinuation: Bool { get }
    /// The file types its import extension describes (`CSImportExtension`);
    /// empty when it has none.
    var importedContentTypes: [String] { get }
    /// One-line usage of its commands.
    var usage: String { get }
    /// Runs one command; `say` prints a line. Returns false when the
    /// command did not do what was asked (the process then exits 1).
    func run(_ arguments: [String], environment: [String: String], say: (String) -> Void) throws -> Bool
}

extension ExampleApp {
    public var importedContentTypes: [String] { [] }

    /// The app's registration manifest, the JSON `spotlight apps register
    /// --manifest` and `AppRegistry.register(manifestAt:)` read, for the
    /// app installed as `executable`: it is launched with `continue`, its
    /// index extension is `extension`, its importer (if any) `import`.
    public func manifest(executable: String) throws -> Data {
        var manifest: [String: Any] = [
            "bundleIdentifier": bundleIdentifier,
            "displayName": displayName,
            "launchCommand": [executable, "continue"],
            "NSUserActivityTypes": activityTypes,
            "CoreSpotlightContinuation": supportsSearchContinuation,
            "indexExtensionCommand": [executable, "extension"],
        ]
        if !importedContentTypes.isEmpty {
            manifest["importerCommand"] = [executable, "import"]
            manifest["importedContentTypes"] = importedContentTypes
        }
        return try JSONSerialization.data(withJSONObject: manifest, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }
}

/// The two examples, by name.
public enum ExampleApps {
    public static let all: [any ExampleApp] = [Colleagues(), GreenGrocer()]

    /// The example with this display name, any case.
    public static func named(_ name: String) -> (any ExampleApp)? {
        all.first { $0.displayName.lowercased() == name.lowercased() }
    }

    /// `main` of an example app's executable: runs the command line and exits.
    /// Every app also answers `manifest`: it prints its registration manifest
    /// (``ExampleApp/manifest(executable:)``) naming its own executable, which
    /// is how `spotlight demo` registers it, as an installer would.
    public static func main(_ app: any ExampleApp, arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
        if arguments == ["manifest"] {
            do {
                let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
                FileHandle.standardOutput.write(try app.manifest(executable: executable) + Data("\n".utf8))
                exit(0)
            } catch {
                FileHandle.standardError.write(Data("\(app.displayName.lowercased()): cannot write its manifest: \(error)\n".utf8))
                exit(1)
            }
        }
        OpenSpotlightConfiguration.configure(bundleIdentifier: app.bundleIdentifier)
        do {
            let ok = try app.run(arguments, environment: ProcessInfo.processInfo.environment) { print($0) }
            exit(ok ? 0 : 1)
        } catch {
            FileHandle.standardError.write(Data("\(app.displayName.lowercased()): \(error)\n".utf8))
            exit(1)
        }
    }
}

/// Waits for a completion handler, for the console apps' straight-line code.
func waitFor(_ start: (@escaping @Sendable ((any Error)?) -> Void) -> Void) throws {
    final class Box: @unchecked Sendable { var error: (any Error)? }
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    start { error in
        box.error = error
        done.signal()
    }
    done.wait()
    if let error = box.error { throw error }
}

/// A tiny SVG avatar with someone's initials, as thumbnail data.
func avatar(initials: String, hue: Int) -> Data {
    Data("""
        <svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><circle cx="32" cy="32" r="32" fill="hsl(\(hue),60%,45%)"/>\
        <text x="32" y="40" font-size="24" text-anchor="middle" fill="white">\(initials)</text></svg>
        """.utf8)
}

/// An example app's index extension: reindexes `items`, and provides an
/// item's data to other apps through `provide`.
final class ReindexingHandler: CSIndexExtensionRequestHandler, @unchecked Sendable {
    let items: @Sendable () -> [CSSearchableItem]
    let provide: @Sendable (_ itemIdentifier: String, _ typeIdentifier: String) throws -> Data
    init(_ items: @escaping @Sendable () -> [CSSearchableItem],
         provide: @escaping @Sendable (String, String) throws -> Data = { id, type in
             throw CSIndexError(.unknownError, "no \(type) data for \(id)")
         }) {
        self.items = items
        self.provide = provide
    }

    override func data(for searchableIndex: CSSearchableIndex, itemIdentifier: String, typeIdentifier: String) throws -> Data {
        try provide(itemIdentifier, typeIdentifier)
    }

    override func searchableIndex(_ searchableIndex: CSSearchableIndex,
                                  reindexAllSearchableItemsWithAcknowledgementHandler acknowledgementHandler: @escaping () -> Void) {
        let done = UncheckedHandler(acknowledgementHandler)
        searchableIndex.indexSearchableItems(items()) { _ in done.call() }
    }

    override func searchableIndex(_ searchableIndex: CSSearchableIndex, reindexSearchableItemsWithIdentifiers identifiers: [String],
                                  acknowledgementHandler: @escaping () -> Void) {
        let wanted = Set(identifiers)
        let done = UncheckedHandler(acknowledgementHandler)
        searchableIndex.indexSearchableItems(items().filter { wanted.contains($0.uniqueIdentifier) }) { _ in done.call() }
    }
}

struct UncheckedHandler: @unchecked Sendable {
    let handler: () -> Void
    init(_ handler: @escaping () -> Void) { self.handler = handler }
    func call() { handler() }
}
