import Foundation
import Testing
import TestSupport
@testable import SpotlightServer

/// The service's private files: runtime directory, token, desktop files, and its client's parsing.
@Suite struct ServiceFilesTests {
    func mode(_ url: URL) throws -> Int { try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) ?? -1 }

    @Test func theRuntimeDirectoryIsPrivateOrRefused() throws {
        let scratch = try ScratchDirectory("files")
        defer { scratch.cleanUp() }
        let base = scratch.url
        let made = try ServicePaths(environment: [ServicePaths.directoryVariable: base.appendingPathComponent("run").path])
        #expect(try mode(made.directory) == 0o700)
        #expect(try ServicePaths(environment: ["XDG_RUNTIME_DIR": base.path]).socket.path == base.path + "/openspotlight/spotlight.sock")

        let open = base.appendingPathComponent("open")
        try FileManager.default.createDirectory(at: open, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        _ = try ServicePaths(environment: [ServicePaths.directoryVariable: open.path])
        #expect(try mode(open) == 0o700, "a directory open to others is made private")

        let link = base.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: open)
        let file = base.appendingPathComponent("file")
        try Data().write(to: file)
        for refused in [link, file] {
            #expect(throws: ServiceError.self, "\(refused.lastPathComponent)") { try ServicePaths(environment: [ServicePaths.directoryVariable: refused.path]) }
        }
    }

    @Test func theTokenIsMadePrivateAndReplacedWhenOthersCanReadIt() throws {
        let scratch = try ScratchDirectory("files")
        defer { scratch.cleanUp() }
        let base = scratch.url
        let file = base.appendingPathComponent("token")
        let token = try ServiceToken.loadOrCreate(at: file)
        #expect(token.value.count == 64 && token.value.allSatisfy(\.isHexDigit))
        #expect(try mode(file) == 0o600)
        #expect(try ServiceToken.loadOrCreate(at: file) == token, "kept")
        #expect(token.matches(token.value) && !token.matches(String(token.value.dropLast()) + "x") && !token.matches("") && !token.matches(token.value + "0"))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        let replaced = try ServiceToken.loadOrCreate(at: file)
        #expect(replaced != token, "a token others could read is never used")
        #expect(try mode(file) == 0o600)
        try Data("not a token".utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        #expect(try ServiceToken.load(from: file) == nil)
    }

    @Test func desktopFilesRefuseWhatCannotBeQuoted() throws {
        let scratch = try ScratchDirectory("files")
        defer { scratch.cleanUp() }
        let base = scratch.url
        let environment = ["HOME": base.path]
        let spaced = DesktopIntegration(executable: URL(fileURLWithPath: "/opt/open spotlight/spotlight"), port: 7780, environment: environment)
        #expect(try spaced.serveCommand() == "\"/opt/open spotlight/spotlight\" serve --port 7780")
        #expect(spaced.unitFile.path == base.path + "/.config/systemd/user/openspotlight.service")
        #expect(spaced.busServiceFile.path == base.path + "/.local/share/dbus-1/services/org.openspotlight.SearchProvider.service")
        for path in ["/opt/it's/spotlight", "/opt/$HOME/spotlight", "/opt/100%/spotlight", "/opt/a\nb/spotlight", "/opt/back\\slash/spotlight"] {
            #expect(throws: ServiceError.self, "\(path.debugDescription)") {
                try DesktopIntegration(executable: URL(fileURLWithPath: path), port: nil, environment: environment).install()
            }
        }
        var hostile = environment
        hostile["OPENSPOTLIGHT_HOME"] = "/data/\"; rm -rf ~"
        #expect(throws: ServiceError.self) { try DesktopIntegration(executable: URL(fileURLWithPath: "/usr/bin/spotlight"), port: nil, environment: hostile).install() }
        #expect(!FileManager.default.fileExists(atPath: base.appendingPathComponent(".config").path), "nothing half written")
    }

    @Test func theClientReadsLengthsChunksAndRefusesNonsense() throws {
        let table: [(String, Int, String)] = [
            ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello and more", 200, "hello"),
            ("HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n", 404, "abcde"),
            ("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nto the end", 200, "to the end"),
        ]
        for (raw, status, body) in table {
            let answer = try ServiceClient.parse(Data(raw.utf8))
            #expect(answer.status == status && String(decoding: answer.body, as: UTF8.self) == body, "\(raw.debugDescription)")
        }
        for raw in ["no header at all", "SMTP 220 hello\r\n\r\n", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n9\r\nabc"] {
            #expect(throws: ServiceError.self, "\(raw.debugDescription)") { try ServiceClient.parse(Data(raw.utf8)) }
        }
        let refused = ServiceClient.Answer(status: 401, headers: [:], body: Data(#"{"error":{"code":"unauthorized","message":"POST requests need a token"}}"#.utf8))
        #expect(throws: ServiceError(.badResponse, "POST requests need a token")) { try refused.decode(API.Health.self) }
    }
}
