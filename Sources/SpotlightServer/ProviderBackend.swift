import Foundation
import Logging
import ServiceLifecycle
import SpotlightDBus
import SpotlightIndex
import SpotlightSystem
import SpotlightService
import Synchronization

/// The GNOME Shell provider's searches, answered by the service's kept
/// stores: results are the system search's (best app first, three per app),
/// identified by their references; choosing one opens it in its app; "more"
/// opens the search page.
final class ProviderBackend: SearchProviderBackend {
    let api: SpotlightAPI
    let paths: ServicePaths
    /// The results of recent searches, for their metas (GNOME asks right after searching).
    private let recent = Mutex<[String: (API.Result, API.App)]>([:])
    private let logger = Logger(label: "openspotlight.gnome-provider")

    init(api: SpotlightAPI, paths: ServicePaths) {
        self.api = api
        self.paths = paths
    }

    func search(terms: [String]) -> [String] {
        let text = terms.joined(separator: " ")
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty,
              let found = try? api.search(text, resultsPerApp: 3, webResults: 0, via: "dbus") else { return [] }
        var rows: [String: (API.Result, API.App)] = [:]
        for group in found.groups { for result in group.results { rows[result.reference] = (result, group.app) } }
        recent.withLock { kept in
            if kept.count > 500 { kept.removeAll() }
            kept.merge(rows) { $1 }
        }
        return found.groups.flatMap { $0.results.map(\.reference) }
    }

    func metas(for identifiers: [String]) -> [SearchProviderResultMeta] {
        // GNOME Shell asks for the metas of the results it is about to show: those are impressions.
        api.impressions.add(identifiers.compactMap { try? ResultReference(parsing: $0) })
        let kept = recent.withLock { $0 }
        return identifiers.compactMap { identifier in
            if let (result, app) = kept[identifier] {
                return meta(identifier, title: result.title, description: result.description, app: app)
            }
            // Not from a recent search (GNOME restarted?): read the stored item.
            guard let shown = try? api.show(identifier), let reference = try? ResultReference(parsing: identifier),
                  let app = try? api.registry.app(reference.bundleIdentifier) else { return nil }
            let title = (shown.attributes["title"] ?? shown.attributes["displayName"]).map(Self.unquoted) ?? reference.itemIdentifier
            return meta(identifier, title: title, description: shown.attributes["contentDescription"].map(Self.unquoted), app: API.App(app))
        }
    }

    private func meta(_ identifier: String, title: String, description: String?, app: API.App) -> SearchProviderResultMeta {
        let registration = try? api.registry.app(app.bundleIdentifier)
        let line = [app.displayName, description].compactMap { $0 }.joined(separator: " — ")
        return SearchProviderResultMeta(identifier: identifier, name: title, description: line,
                                        icon: registration?.icon ?? "system-search", clipboardText: title)
    }

    func activate(identifier: String, terms: [String]) {
        let api = self.api, logger = self.logger
        Task {
            do {
                _ = try await api.open(API.OpenRequest(reference: identifier))
            } catch {
                logger.warning("GNOME Shell: cannot open \(identifier): \(error)")
            }
        }
    }

    func launchSearch(terms: [String]) {
        let text = terms.joined(separator: " ")
        guard let portText = try? String(contentsOf: paths.portFile, encoding: .utf8),
              let port = Int(portText.trimmingCharacters(in: .whitespacesAndNewlines)),
              let page = URL(string: "http://127.0.0.1:\(port)/?q=\(API.Result.queryEscaped(text))") else {
            logger.warning("GNOME Shell asked for the search page, but the service does not listen on 127.0.0.1 (start it with --port)")
            return
        }
        let runner = api.runner, logger = self.logger
        Thread.detachNewThread {
            do { try runner.open(page, label: "the search page") } catch { logger.warning("cannot open the search page: \(error)") }
        }
    }

    /// A value as `/v1/show` prints it, without the quotes of a string.
    static func unquoted(_ text: String) -> String {
        guard text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2,
              let decoded = try? JSONDecoder().decode(String.self, from: Data(text.utf8)) else { return text }
        return decoded
    }
}

/// Runs the provider's bus thread as a service of the group: started with
/// the service, stopped (within 100 ms) when the group shuts down. No session
/// bus is not an error: the service goes on without the provider.
struct SearchProviderService: Service {
    let provider: GnomeSearchProvider
    let logger: Logger

    func run() async throws {
        let stop = Atomic<Bool>(false)
        let finished = AsyncStream<(any Error)?>.makeStream()
        let provider = self.provider
        Thread.detachNewThread {
            do {
                try provider.run(until: { stop.load(ordering: .relaxed) })
                finished.continuation.yield(nil)
            } catch {
                finished.continuation.yield(error)
            }
            finished.continuation.finish()
        }
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                for await outcome in finished.stream {
                    if let outcome { logger.warning("no GNOME Shell search provider: \(outcome)") }
                }
            } onCancel: {
                stop.store(true, ordering: .relaxed)
            }
        } onGracefulShutdown: {
            stop.store(true, ordering: .relaxed)
        }
    }
}
