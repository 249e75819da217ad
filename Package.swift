// swift-tools-version:6.1
// OpenSpotlight: Apple's app search system (Core Spotlight, the search side of
// NSUserActivity, web markup) rebuilt in Swift for Linux. See ARCHITECTURE.md.

import PackageDescription

#if canImport(Glibc)
import Glibc
#endif

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// How the release executables are linked on Linux: by GNU ld (binutils'
/// `ld.bfd`, beside the `gold` Swift uses by default), their relative
/// relocations packed (`-z pack-relative-relocs`: `DT_RELR`, which glibc's
/// loader reads from 2.36 on). Position-independent, a static Swift
/// executable holds ~83,000 relative relocations, a 2 MB table every
/// process read at its start and kept resident; packed, 16 KB.
/// `spotlight-bench-child`, alternating runs (BENCHMARKS.md): 1.2–1.7 MB
/// less RSS at its start and 1.2–2.1 MB less at indexing's peak. Left out
/// where glibc is older (its loader would refuse the binary) or `ld.bfd`
/// is missing, and in debug builds (the tests).
let releaseLinking: [LinkerSetting] = {
    #if canImport(Glibc)
    // "glibc 2.36"
    var buffer = [CChar](repeating: 0, count: 64)
    _ = confstr(Int32(_CS_GNU_LIBC_VERSION), &buffer, buffer.count)
    let version = String(cString: buffer).split(separator: " ").last.map { $0.split(separator: ".").compactMap { Int($0) } } ?? []
    let path = (getenv("PATH").map { String(cString: $0) } ?? "").split(separator: ":")
    guard version.count >= 2, (version[0], version[1]) >= (2, 36),
          path.contains(where: { access("\($0)/ld.bfd", X_OK) == 0 }) else { return [] }
    return [.unsafeFlags(["-use-ld=bfd", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"], .when(platforms: [.linux], configuration: .release))]
    #else
    return []
    #endif
}()

let package = Package(
    name: "OpenSpotlight",
    products: [
        .library(name: "SpotlightErrors", targets: ["SpotlightErrors"]),
        .library(name: "SpotlightQuery", targets: ["SpotlightQuery"]),
        .library(name: "SpotlightIndex", targets: ["SpotlightIndex"]),
        .library(name: "SpotlightSystem", targets: ["SpotlightSystem"]),
        .library(name: "OpenCoreSpotlight", targets: ["OpenCoreSpotlight"]),
        .library(name: "CoreSpotlightCompat", targets: ["CoreSpotlightCompat"]),
        .library(name: "UniformTypeIdentifiers", targets: ["UniformTypeIdentifiers"]),
        .library(name: "MapKit", targets: ["MapKit", "CoreLocation", "Contacts"]),
        .library(name: "SpotlightService", targets: ["SpotlightService"]),
        .library(name: "WebMarkup", targets: ["WebMarkup"]),
        .library(name: "SpotlightServer", targets: ["SpotlightServer"]),
        .library(name: "PublicIndexProtocol", targets: ["PublicIndexProtocol"]),
        .library(name: "PublicIndex", targets: ["PublicIndex"]),
        .library(name: "PublicIndexService", targets: ["PublicIndexService"]),
        .executable(name: "spotlight", targets: ["spotlight"]),
        .executable(name: "colleagues", targets: ["colleagues"]),
        .executable(name: "greengrocer", targets: ["greengrocer"]),
        .executable(name: "spotlight-bench", targets: ["SpotlightBenchmarks"]),
        .executable(name: "spotlight-bench-child", targets: ["SpotlightBenchmarkChild"]),
        .executable(name: "spotlight-public-bench", targets: ["PublicIndexBenchmarks"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // `swift package generate-documentation`: the DocC catalogs of OpenCoreSpotlight, SpotlightIndex and WebMarkup.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The one shape of the package's errors (`CodedError`, `ErrorCode`) that each module's error is
        // an alias of. No dependencies.
        .target(name: "SpotlightErrors", swiftSettings: strictSettings),
        .testTarget(name: "SpotlightErrorsTests", dependencies: ["SpotlightErrors"], swiftSettings: strictSettings),
        // The query language: parser, printer, reference evaluator. No dependencies.
        .target(name: "SpotlightQuery", swiftSettings: strictSettings),
        .testTarget(name: "SpotlightQueryTests", dependencies: ["SpotlightQuery", "TestSupport"], swiftSettings: strictSettings),
        // The engine: durable per-app stores, items, batches, expiration,
        // engagement, free-text search and ranking. SQLite through GRDB.
        // Apple's UTType, for code that imports UniformTypeIdentifiers. No dependencies.
        .target(name: "UniformTypeIdentifiers", swiftSettings: strictSettings),
        // The ranked index's core: the tokenizer, segments and their postings, top-k search, typo
        // walks, merging and scoring. Bytes and memory only: no SQLite, no files' names, no engine types.
        // The engine's adapter (SpotlightIndex/Ranked) uses its `package` API. Not a product.
        // glibc's malloc.h (malloc_trim, before a large merge: see FreedMemory.swift).
        .systemLibrary(name: "CMalloc"),
        .target(name: "RankedSearch", dependencies: ["CMalloc"], exclude: ["README.md"], swiftSettings: strictSettings),
        // Its tests use its package API only (no @testable).
        .testTarget(name: "RankedSearchTests", dependencies: ["RankedSearch", "TestSupport", "Corpora"], swiftSettings: strictSettings),
        .target(
            name: "SpotlightIndex",
            dependencies: [
                "RankedSearch",
                "SpotlightErrors",
                "SpotlightQuery",
                "UniformTypeIdentifiers",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for the one statement per item of bulk indexing (ItemInserter).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The system layer over the engine: the app registry and how apps are run (AppProcess), the
        // requests the system sends apps (index, import), the public web store. No HTTP, no Apple names.
        .target(name: "SpotlightSystem", dependencies: ["SpotlightErrors", "SpotlightIndex", "StrictJSON"], swiftSettings: strictSettings),
        // Apple's Core Spotlight API (and NSUserActivity's search side) over the engine and the system layer.
        .target(
            name: "OpenCoreSpotlight",
            dependencies: [
                "SpotlightIndex", "SpotlightSystem", "SpotlightQuery", "UniformTypeIdentifiers", "PublicIndexProtocol",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The MapKit subset app code like Apple's samples uses (MKMapItem, MKPlacemark,
        // NSUserActivity.mapItem), with the CoreLocation and Contacts types it is made of.
        .target(name: "Contacts", swiftSettings: strictSettings),
        .target(name: "CoreLocation", dependencies: ["Contacts"], swiftSettings: strictSettings),
        .target(
            name: "MapKit",
            dependencies: [
                "CoreLocation", "Contacts", "OpenCoreSpotlight", "SpotlightService", "UniformTypeIdentifiers",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // `import CoreSpotlightCompat`: Apple's framework where it exists, OpenCoreSpotlight elsewhere.
        .target(name: "CoreSpotlightCompat", dependencies: ["OpenCoreSpotlight", "UniformTypeIdentifiers", "MapKit"], swiftSettings: strictSettings),
        .testTarget(
            name: "OpenCoreSpotlightTests",
            dependencies: ["OpenCoreSpotlight", "CoreSpotlightCompat", "SpotlightIndex", "SpotlightSystem", "SpotlightService", "UniformTypeIdentifiers",
                           "MapKit", "PublicIndexProtocol", "greengrocer", "openspotlight-app-helper", "TestSupport"],
            swiftSettings: strictSettings
        ),
        // Apple's Swift signatures, one compiler-checked use per row of the spec's tables.
        .testTarget(name: "AppleAPIConformanceTests", dependencies: ["OpenCoreSpotlight", "UniformTypeIdentifiers", "MapKit", "CoreLocation", "Contacts"],
                    swiftSettings: strictSettings),
        // An app in a process of its own, for the tests of writes from another process.
        .executableTarget(name: "openspotlight-app-helper", dependencies: ["OpenCoreSpotlight", "UniformTypeIdentifiers"],
                          path: "Tests/AppHelper", swiftSettings: strictSettings),
        // Web markup: page metadata, schema.org, Smart App Banner, apple-app-site-association,
        // robots.txt and sitemaps. No dependency on the engine; libxml2 and zlib from Debian.
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "WebMarkup", dependencies: ["SpotlightErrors", "CLibXML2", "CZlib", "StrictJSON"], swiftSettings: strictSettings),
        // The one strict JSON reader (members in order, numbers as written, line and column of errors). No dependencies.
        .target(name: "StrictJSON", swiftSettings: strictSettings),
        .testTarget(name: "WebMarkupTests", dependencies: ["WebMarkup", "StrictJSON", "TestSupport"], swiftSettings: strictSettings),
        // The polite crawler: robots.txt, sitemaps, association files, pages into the public web store.
        .target(
            name: "SpotlightCrawler",
            dependencies: [
                "SpotlightErrors", "WebMarkup", "SpotlightIndex", "SpotlightSystem",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // What every test target shares: a scratch directory, the executables built beside the tests,
        // running a program to the end. Foundation only, so any test target may depend on it.
        .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: strictSettings),
        // A website on loopback for the crawler's and the command line's tests. Kept apart from
        // TestSupport: it needs NIO, which the other test targets do not link.
        .target(
            name: "WebTestSupport",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/WebTestSupport",
            swiftSettings: strictSettings
        ),
        // Where the tests and benchmarks find the corpora: OPENSPOTLIGHT_CORPORA, ../shared/corpora,
        // or .build/corpora as Scripts/make-corpora.py builds it. Foundation only.
        .target(name: "Corpora", path: "Tests/Corpora", swiftSettings: strictSettings),
        .testTarget(
            name: "SpotlightCrawlerTests",
            dependencies: ["SpotlightCrawler", "WebMarkup", "SpotlightIndex", "SpotlightSystem", "SpotlightService", "WebTestSupport",
                           "TestSupport"],
            swiftSettings: strictSettings
        ),
        // The system side: registered apps, search across apps, opening results in the app.
        // Also the device's side of the public index: its opt-in, token, outbox sender and client.
        .target(
            name: "SpotlightService",
            dependencies: [
                "SpotlightIndex", "SpotlightSystem", "UniformTypeIdentifiers", "PublicIndexProtocol",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "SpotlightServiceTests", dependencies: ["SpotlightService", "SpotlightIndex", "SpotlightSystem", "TestSupport"],
                    swiftSettings: strictSettings),
        // The GNOME Shell search provider (org.gnome.Shell.SearchProvider2) on the session bus, through
        // systemd's sd-bus (libsystemd-dev): see Sources/SpotlightServer/README.md for why sd-bus rather than GDBus.
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .target(
            name: "SpotlightDBus",
            dependencies: ["CSystemd", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        // The resident service `spotlight serve`: HTTP API, search page, WebSocket search as you
        // type, metrics, scheduled maintenance, the GNOME provider. The system layer, and the engine's
        // public types that layer's answers carry.
        .target(
            name: "SpotlightServer",
            dependencies: [
                "SpotlightErrors", "SpotlightService", "SpotlightIndex", "SpotlightSystem", "SpotlightDBus", "PublicIndexProtocol",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["README.md"],  // the design note beside the code
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SpotlightServerTests",
            dependencies: [
                "SpotlightServer", "SpotlightService", "SpotlightIndex", "SpotlightSystem", "spotlight", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
        // The public index's wire format: an activity's canonical public form and its SHA-256,
        // donations, content, search results. Shared by devices and the service; swift-crypto only.
        .target(
            name: "PublicIndexProtocol",
            dependencies: ["SpotlightErrors", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings
        ),
        // The public index on PostgreSQL (postgres-nio): distinct donors per hash, content past the
        // threshold, crawled pages, ranked search; one node or partitions on shards (postgres_fdw).
        .target(
            name: "PublicIndex",
            dependencies: [
                "SpotlightErrors", "PublicIndexProtocol",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["README.md"],  // the design note beside the code
            swiftSettings: strictSettings
        ),
        // `spotlight public serve`: the public index's HTTP API (Hummingbird 2), and the crawler into it.
        .target(
            name: "PublicIndexService",
            dependencies: [
                "PublicIndex", "PublicIndexProtocol", "SpotlightCrawler", "SpotlightIndex", "SpotlightSystem",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PublicIndexTests",
            dependencies: [
                "PublicIndex", "PublicIndexService", "PublicIndexProtocol", "SpotlightService", "SpotlightIndex", "SpotlightSystem",
                "SpotlightCrawler", "WebTestSupport", "TestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // The `spotlight` command line. `spotlight demo` runs the example apps as programs of their own
        // (the `colleagues` and `greengrocer` executables beside it, which it builds when they are
        // missing): it does not link them.
        .executableTarget(
            name: "spotlight",
            dependencies: [
                "SpotlightIndex", "SpotlightSystem", "SpotlightService", "SpotlightServer", "WebMarkup", "SpotlightCrawler",
                "PublicIndex", "PublicIndexService", "PublicIndexProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings,
            linkerSettings: releaseLinking
        ),
        // The two example apps (Apple's Colleagues and Green Grocer samples, as console apps).
        .target(name: "ExampleApps", dependencies: ["OpenCoreSpotlight", "UniformTypeIdentifiers", "MapKit"],
                path: "Examples/ExampleApps", swiftSettings: strictSettings),
        .executableTarget(name: "colleagues", dependencies: ["ExampleApps"], path: "Examples/Colleagues", swiftSettings: strictSettings),
        .executableTarget(name: "greengrocer", dependencies: ["ExampleApps"], path: "Examples/GreenGrocer", swiftSettings: strictSettings),
        .testTarget(name: "ExampleAppsTests", dependencies: ["ExampleApps", "colleagues", "greengrocer", "OpenCoreSpotlight", "SpotlightIndex", "SpotlightSystem",
                                                          "SpotlightService", "TestSupport"],
                    swiftSettings: strictSettings),
        // End-to-end tests of the built `spotlight` binary.
        // The example apps' executables are built beside `spotlight` for its demo.
        .testTarget(
            name: "SpotlightCLITests",
            dependencies: ["spotlight", "colleagues", "greengrocer", "SpotlightService", "SpotlightIndex", "SpotlightSystem", "WebTestSupport", "PublicIndex",
                           "TestSupport"],
            swiftSettings: strictSettings
        ),
        // Fuzzing: one entry per reader of untrusted input; the runner is libFuzzer's
        // target when built with -sanitize=fuzzer -DFUZZING (Scripts/fuzz.sh), a replayer otherwise.
        .target(name: "FuzzTargets", dependencies: ["SpotlightQuery", "SpotlightIndex", "SpotlightSystem", "WebMarkup"],
                path: "Fuzz/FuzzTargets", swiftSettings: strictSettings),
        .executableTarget(name: "openspotlight-fuzz", dependencies: ["FuzzTargets", "SpotlightIndex"],
                          path: "Fuzz/Runner", swiftSettings: strictSettings),
        .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzTargets", "SpotlightIndex"], swiftSettings: strictSettings),
        // The engine's benchmark, side by side with plain SQLite FTS5 and Tantivy (run in release).
        // Its phases (indexing, querying, one engine each) run as children, measured: they link
        // only the engine and GRDB, as an app embedding the engine does, not the service, its
        // HTTP server and PostgreSQL's client the parent links for `spotlight-bench service`.
        .target(
            name: "BenchmarkPhases",
            dependencies: ["SpotlightIndex", "Corpora", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Benchmarks/BenchmarkPhases",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "SpotlightBenchmarkChild",
            dependencies: ["BenchmarkPhases"],
            path: "Benchmarks/SpotlightBenchmarkChild",
            swiftSettings: strictSettings,
            linkerSettings: releaseLinking
        ),
        .executableTarget(
            name: "SpotlightBenchmarks",
            dependencies: [
                // PublicIndex for its posix_spawn runner (a process per keystroke, timed).
                "BenchmarkPhases", "SpotlightIndex", "SpotlightSystem", "SpotlightServer", "SpotlightService", "Corpora", "PublicIndex",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks/SpotlightBenchmarks",
            swiftSettings: strictSettings,
            linkerSettings: releaseLinking
        ),
        // The public index under load (simulated devices through the HTTP API) and its search
        // on one node beside a coordinator with two shards (run in release).
        .executableTarget(
            name: "PublicIndexBenchmarks",
            dependencies: [
                "PublicIndex", "PublicIndexService", "PublicIndexProtocol", "Corpora",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Benchmarks/PublicIndexBenchmarks",
            swiftSettings: strictSettings,
            linkerSettings: releaseLinking
        ),
        // A child process for the tests that need a second writer or a SIGKILL.
        .executableTarget(
            name: "spotlight-store-helper",
            dependencies: ["SpotlightIndex", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/StoreHelper",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SpotlightIndexTests",
            dependencies: ["SpotlightIndex", "RankedSearch", "SpotlightQuery", "spotlight-store-helper", "Corpora", "TestSupport",
                           .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
