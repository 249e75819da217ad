import Foundation
import GRDB
import Testing
import TestSupport
@testable import SpotlightIndex

/// Bytes flipped anywhere in a segment file: every query afterwards is
/// either exactly what the undamaged index answers (the damage was found
/// and the index rebuilt from the store) or an error; never a wrong answer.
@Suite(.serialized) struct SegmentDamageTests {
    static let queries = ["alpha", "bravo charlie", "delt", "echo fox", "golf", "hotel india", "juliet kil", "lima",
                          "mike november", "oscar", "papa que", "romeo sierra", "tango", "uniform victor", "whisky",
                          "xray yankee", "zulu", "alpah", "shared", "number 17"]

    /// A store whose index is in segment files larger than the load-time checksum limit.
    static func makeStore(_ dir: ScratchDirectory) throws -> URL {
        let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima",
                     "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor", "whisky",
                     "xray", "yankee", "zulu"]
        var generator = SplitMix(seed: 24)
        let store = try open(dir)
        try store.index((0..<1_500).map { n in
            let text = (0..<12).map { _ in words[Int(generator.next() % UInt64(words.count))] }.joined(separator: " ")
            return item("i\(n)", title: "shared number \(n % 50) \(words[n % words.count])", ["contentDescription": .string(text)])
        })
        try store.finishMerging()
        return dir.url.appendingPathComponent("org.openspotlight.tests/shared.ranked")
    }

    /// Segments over 2 KB in files, over 4 KB verified once per change rather
    /// than on every load; no background checks, so that only the checks
    /// before a query reads a segment can find the damage.
    static func open(_ dir: ScratchDirectory) throws -> SpotlightStore {
        try fileStore(dir) { $0.rankedInlineLimit = 2 << 10; $0.rankedChecksumLimit = 4 << 10; $0.rankedBackgroundChecks = false }
    }

    static func answers(_ store: SpotlightStore) throws -> [[String]] {
        try queries.map { query in try store.search(query, limit: 25).map { "\($0.item.uniqueIdentifier) \($0.score.total)" } }
    }

    @Test func flippedBytesAreFoundBeforeAnyQueryReadsThem() throws {
        let pristine = try ScratchDirectory()
        defer { pristine.cleanUp() }
        let directory = try Self.makeStore(pristine)
        let expected = try Self.answers(try Self.open(pristine))
        let segments = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".seg") }.sorted()
        try #require(!segments.isEmpty)

        var cases = 0
        for name in segments {
            let size = try #require(try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.size] as? Int)
            #expect(size > 4 << 10, "over the load-time checksum limit")
            // The header, the section table, and spread through the body.
            let offsets = Array(Set([0, 9, 17, 40, 64] + (1...24).map { size * $0 / 25 } + [size - 1])).sorted()
            for offset in offsets {
                let copy = try ScratchDirectory()
                defer { copy.cleanUp() }
                try FileManager.default.removeItem(at: copy.url)
                try FileManager.default.copyItem(at: pristine.url, to: copy.url)
                let file = copy.url.appendingPathComponent("org.openspotlight.tests/shared.ranked/\(name)")
                let handle = try FileHandle(forUpdating: file)
                try handle.seek(toOffset: UInt64(offset))
                let byte = try #require(try handle.read(upToCount: 1)?.first)
                try handle.seek(toOffset: UInt64(offset))
                try handle.write(contentsOf: [byte ^ 0x24])
                try handle.close()

                let store = try Self.open(copy)
                for (query, answer) in zip(Self.queries, expected) {
                    do {
                        let got = try store.search(query, limit: 25).map { "\($0.item.uniqueIdentifier) \($0.score.total)" }
                        #expect(got == answer, "\(name) byte \(offset) flipped: \(query)")
                    } catch {
                        // Reported: acceptable, as long as nothing wrong was answered.
                    }
                }
                #expect(!FileManager.default.fileExists(atPath: file.path), "\(name) byte \(offset): the damaged file was found and replaced")
                cases += 1
            }
        }
        #expect(cases >= 25)
    }

    @Test func aVerifiedFileIsNotCheckedAgainUntilItChanges() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let directory = try Self.makeStore(dir)
        let named = try fileStore(dir).read { try String.fetchAll($0, sql: "SELECT file FROM ranked_segments WHERE file IS NOT NULL ORDER BY id") }
        let name = try #require(named.first)
        let file = directory.appendingPathComponent(name)
        let segment = try Segment(SegmentBytes(mapping: file.path), verifyChecksum: false)
        #expect(SegmentVerification.isVerified(file, checksum: segment.storedChecksum), "the writer recorded it")
        #expect(!SegmentVerification.isVerified(file, checksum: segment.storedChecksum ^ 1))
        // Touching the file (its change time moves) makes it unverified.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 0)], ofItemAtPath: file.path)
        #expect(!SegmentVerification.isVerified(file, checksum: segment.storedChecksum))
        // The next reader verifies it whole, finds it intact, and records it again.
        _ = try Self.open(dir).search("alpha")
        #expect(SegmentVerification.isVerified(file, checksum: segment.storedChecksum))
        // A link where the record should be is never written through.
        let record = SegmentVerification.recordURL(for: file)
        try FileManager.default.removeItem(at: record)
        let elsewhere = dir.url.appendingPathComponent("elsewhere")
        try Data("keep".utf8).write(to: elsewhere)
        try FileManager.default.createSymbolicLink(at: record, withDestinationURL: elsewhere)
        SegmentVerification.record(file, checksum: segment.storedChecksum)
        #expect(try Data(contentsOf: elsewhere) == Data("keep".utf8))
        #expect(!SegmentVerification.isVerified(file, checksum: segment.storedChecksum))
    }
}
