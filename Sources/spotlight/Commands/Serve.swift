import ArgumentParser
import Foundation
import Logging
import SpotlightIndex
import SpotlightServer

/// `spotlight serve`: the resident service.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve",
        abstract: "Run the resident search service: HTTP API, search page, search as you type, GNOME Shell provider.",
        discussion: """
            Listens on a Unix socket in $XDG_RUNTIME_DIR/openspotlight (mode 0600) and, with --port, \
            on 127.0.0.1 (the search page). Keeps every app's stores open, runs index maintenance on \
            a schedule, and answers GNOME Shell's search box on the session bus. `spotlight install` \
            makes systemd start it for you. Stops on SIGTERM or SIGINT.

            Example:
              spotlight serve --port 7780        # then open http://127.0.0.1:7780/
              curl --unix-socket "$XDG_RUNTIME_DIR/openspotlight/spotlight.sock" 'http://localhost/v1/search?q=pear'
            """
    )

    @Option(help: "Also listen on 127.0.0.1 at this port, for the search page (0: any free port).")
    var port: Int?

    @Option(name: .customLong("maintenance-every"), help: "Run index maintenance (checks, merging quiet stores' segments, index extensions) every this many minutes (0: never).")
    var maintenanceMinutes = 30

    @Flag(name: .customLong("gnome-provider"), inversion: .prefixedNo, help: "Serve the GNOME Shell search provider on the session bus, when there is one.")
    var gnomeProvider = true

    // Off by default: checking every store's change counter before reusing
    // cost more than the repeats saved (16 typists over 20 stores: p99 81 ms
    // reusing, 48 ms searching anew; BENCHMARKS.md, service).
    @Flag(name: .customLong("reuse-answers"), inversion: .prefixedNo,
          help: "Answer a repeated search from memory while no store it came from changed (off by default: the checks cost more than they save).")
    var reuseAnswers = false

    @Flag(help: "Log each maintenance pass and the provider's calls.")
    var verbose = false

    @Flag(help: "Print where the service listens as one JSON line (socket, tokenFile, page, root) once it does.")
    var json = false

    func validate() throws {
        if let port, !(0...65_535).contains(port) { throw ValidationError("--port must be 0 to 65535") }
        guard maintenanceMinutes >= 0 else { throw ValidationError("--maintenance-every must be 0 or more") }
    }

    func run() async throws {
        var configuration = SpotlightServer.Configuration(paths: Output.guarded { try ServicePaths() })
        configuration.port = port
        configuration.gnomeSearchProvider = gnomeProvider
        configuration.reusesAnswers = reuseAnswers
        configuration.maintenanceFirstDelay = maintenanceMinutes == 0 ? nil : .seconds(60)
        configuration.maintenanceInterval = .seconds(max(1, maintenanceMinutes) * 60)
        configuration.handlesSignals = true
        var logger = Logger(label: "openspotlight.serve")
        logger.logLevel = verbose ? .info : .notice
        configuration.logger = logger
        let server = SpotlightServer(configuration)
        let provider = configuration.gnomeSearchProvider
        do {
            let json = self.json
            try await server.run { endpoints in
                if json {
                    let object: [String: Any] = ["socket": endpoints.socket.path, "tokenFile": endpoints.tokenFile.path,
                                                 "page": endpoints.page?.absoluteString ?? NSNull(), "root": server.api.root]
                    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
                    FileHandle.standardOutput.write(data + Data("\n".utf8))
                    return
                }
                var lines = ["spotlight serve: stores under \(server.api.root)", "  socket  \(endpoints.socket.path)",
                             "  token   \(endpoints.tokenFile.path) (POST requests: Authorization: Bearer <token>)"]
                if let page = endpoints.page { lines.append("  page    \(page.absoluteString)") }
                if provider { lines.append("  GNOME Shell search provider: on the session bus, when there is one") }
                FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
            }
        } catch let error as ServiceError {
            Output.fail(error.message)
        }
    }
}
