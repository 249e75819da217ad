import Foundation
import Testing
@testable import SpotlightIndex
@testable import SpotlightSystem
@testable import SpotlightServer

/// The search page in Debian's headless Chromium, driven by Selenium
/// (`Scripts/search-page-test.py`); screenshots go to `.build/test-artifacts/search-page/`.
@Suite(.serialized, .timeLimit(.minutes(10)), .enabled(if: BrowserTools.available, "needs chromium, chromium-driver and the Selenium venv that .ci/run makes"))
struct SearchPageBrowserTests {
    static let packageDirectory = BrowserTools.packageDirectory
    static let python = BrowserTools.python

    @Test func typingReadingOpeningAndTheKeyboardInARealBrowser() throws {
        let fixture = try ServerFixture()
        defer { fixture.cleanUp() }
        // A title that is markup, to check the page shows it as text.
        try fixture.store(ServerFixture.grocer).index([SearchableItem(uniqueIdentifier: "p-hostile", attributes: [
            "title": .string("<img src=x onerror=alert(1)>Pearl"), "rankingHint": .number(1),
        ])])
        _ = try WebStore(location: fixture.location).save([WebPage(url: URL(string: "https://recipes.example.com/pear-tart")!, title: "Pear tart recipe",
                                                                    description: "Pears, butter, sugar", crawledAt: Date())])
        try fixture.viewShop()   // a place the empty box suggests
        let server = try ServeProcess(fixture)
        defer { server.stop() }
        let artifacts = Self.packageDirectory.appendingPathComponent(".build/test-artifacts/search-page", isDirectory: true)
        try? FileManager.default.removeItem(at: artifacts)

        let process = Process()
        process.executableURL = Self.python
        process.arguments = [Self.packageDirectory.appendingPathComponent("Scripts/search-page-test.py").path,
                             "--url", "http://127.0.0.1:\(try #require(server.port))/", "--app-log", fixture.appLog.path,
                             "--opener-log", fixture.openerLog.path, "--screenshots", artifacts.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(said)\n\(server.log)")
        #expect(said.contains("search page: all checks passed"), "\(said)")
        for name in ["0-suggested", "1-typed-pe", "2-why", "3-opened", "4-call", "5-cleared"] {
            #expect(FileManager.default.fileExists(atPath: artifacts.appendingPathComponent("\(name).png").path), "screenshot \(name)")
        }
    }
}

/// What the browser test runs with.
enum BrowserTools {
    /// The package's directory, from this file's path.
    static let packageDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let python = packageDirectory.appendingPathComponent(".build/page-test-venv/bin/python3")

    static var available: Bool {
        [python.path, "/usr/bin/chromium", "/usr/bin/chromedriver"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
