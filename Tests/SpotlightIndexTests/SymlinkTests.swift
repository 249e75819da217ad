import Foundation
import Testing
import TestSupport
@testable import SpotlightIndex

/// A link left in one app's folder never lets a store open, write, rename or
/// delete anything outside that folder: each case is refused with an error
/// naming the link, and what it points to is left as it was.
@Suite struct SymlinkTests {
    /// Where a link is placed, relative to the root; what it points to.
    enum Link: String, CaseIterable, CustomTestStringConvertible {
        /// `com.t.a/evil.sqlite` → `../com.t.b/default.sqlite`
        case storeFile
        /// `com.t.a` → a folder outside the root
        case appFolder
        /// `com.t.a/default.ranked` → a folder outside the root holding unrelated `*.seg` files
        case rankedFolder
        /// `com.t.a/default.sqlite-wal` → a file outside
        case journalFile
        /// `.registry/com.t.a` → a folder outside
        case registryFolder

        var testDescription: String { rawValue }
    }

    struct Layout {
        let dir: ScratchDirectory
        var root: URL { dir.url.appendingPathComponent("home") }
        var outside: URL { dir.url.appendingPathComponent("outside") }

        init() throws {
            dir = try ScratchDirectory()
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
            try Data("unrelated".utf8).write(to: outside.appendingPathComponent("1234abcd.seg"))
            try Data("notes".utf8).write(to: outside.appendingPathComponent("notes.txt"))
            try Data("journal".utf8).write(to: outside.appendingPathComponent("journal"))
        }

        func store(_ bundle: String, _ index: String = "default") throws -> SpotlightStore {
            try SpotlightStore(bundleIdentifier: bundle, indexName: index, location: .directory(root),
                               options: options { $0.rankedInlineLimit = 1 << 10 })
        }

        /// Everything under the outside folder, with its bytes.
        func outsideContents() throws -> [String: Data] {
            var contents: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: outside.path) {
                contents[name] = try Data(contentsOf: outside.appendingPathComponent(name))
            }
            return contents
        }

        func link(_ path: String, to target: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
            try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
        }
    }

    static func items(_ prefix: String) -> [SearchableItem] {
        (0..<300).map { item("\(prefix)\($0)", title: "\(prefix) shared word \($0) " + String(repeating: "filler\($0 % 7) ", count: 10)) }
    }

    @Test(arguments: Link.allCases)
    func aLinkIsRefusedAndItsTargetUntouched(link: Link) throws {
        let layout = try Layout()
        defer { layout.dir.cleanUp() }
        // App B has a store; app A had one (closed) before the link appears.
        try layout.store("com.t.b").index(Self.items("b"))
        if link != .appFolder { try layout.store("com.t.a").index(Self.items("a")) }
        let bFile = layout.root.appendingPathComponent("com.t.b/default.sqlite")
        let bBefore = try FileManager.default.contentsOfDirectory(atPath: bFile.deletingLastPathComponent().path).sorted()
        let outsideBefore = try layout.outsideContents()

        let linked: String
        switch link {
        case .storeFile:
            linked = "com.t.a/evil.sqlite"
            try layout.link(linked, to: "../com.t.b/default.sqlite")
        case .appFolder:
            linked = "com.t.a"
            try layout.link(linked, to: layout.outside.path)
        case .rankedFolder:
            linked = "com.t.a/default.ranked"
            try FileManager.default.removeItem(at: layout.root.appendingPathComponent(linked))
            try layout.link(linked, to: layout.outside.path)
        case .journalFile:
            linked = "com.t.a/default.sqlite-wal"
            try layout.link(linked, to: layout.outside.appendingPathComponent("journal").path)
        case .registryFolder:
            linked = ".registry/com.t.a"
            try FileManager.default.removeItem(at: layout.root.appendingPathComponent(linked))
            try layout.link(linked, to: layout.outside.path)
        }

        let refused: (any Error) -> Bool = { error in
            guard let error = error as? SpotlightIndexError, error.code == .storeUnavailable else { return false }
            return error.message.contains(layout.root.appendingPathComponent(linked).path) && error.message.contains("symbolic link")
        }
        let index = link == .storeFile ? "evil" : "default"
        if link == .rankedFolder {
            // The store opens (its file is real); reading or writing its index through the link is refused.
            let store = try layout.store("com.t.a")
            #expect(throws: (any Error).self) { try store.search("shared") }
            #expect { try store.index(Self.items("c")) } throws: { refused($0) }
        } else {
            #expect { try layout.store("com.t.a", index) } throws: { refused($0) }
        }

        // Nothing outside changed, nothing of B's was renamed, B's items are all there.
        #expect(try layout.outsideContents() == outsideBefore)
        #expect(try FileManager.default.contentsOfDirectory(atPath: bFile.deletingLastPathComponent().path).sorted() == bBefore)
        #expect(try layout.store("com.t.b").itemCount() == 300)
        #expect(try layout.store("com.t.b").search("shared", limit: 1000).count == 300)
    }

    @Test func aDamagedFileMovedAsideTwiceInOneSecondKeepsBothCopies() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let clock = TestClock()
        var asides: [URL] = []
        for round in 0..<3 {
            let store = try fileStore(dir, clock: clock)
            try store.index([item("a\(round)", title: "apple")])
            let file = try #require(store.fileURL)
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
            try Data(repeating: UInt8(round + 1), count: 50_000).write(to: file)
            let reopened = try fileStore(dir, clock: clock)
            asides.append(try #require(reopened.movedAsideFile))
        }
        #expect(Set(asides).count == 3, "the same second, three names: \(asides.map(\.lastPathComponent))")
        for (round, aside) in asides.enumerated() {
            #expect(try Data(contentsOf: aside) == Data(repeating: UInt8(round + 1), count: 50_000))
        }
    }

    @Test(arguments: ["1.seg", "ffffffffffffffff.seg", "0a1b.seg"])
    func segmentFileNamesAreTheIndexsOwn(name: String) {
        #expect(RankedIndex.isSegmentFileName(name))
    }

    @Test(arguments: ["notes.seg", ".seg", "1.seg.ok", "../1.seg", "1.SEG", "10000000000000000.seg", "1 .seg"])
    func otherNamesAreNeverTheIndexs(name: String) {
        #expect(!RankedIndex.isSegmentFileName(name))
    }

    /// A file's size, a link's own (never its target's), nothing for a missing path.
    @Test func sizesAreOfWhatIsAtThePath() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let file = dir.url.appendingPathComponent("data").path
        let link = dir.url.appendingPathComponent("link").path
        try Data(repeating: 7, count: 12_345).write(to: URL(fileURLWithPath: file))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
        #expect(StorePath.size(file) == 12_345)
        #expect(StorePath.size(link) == file.utf8.count)
        #expect(StorePath.size(dir.url.appendingPathComponent("missing").path) == nil)
        #expect(StorePath.size(file) == (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int))
    }
}
