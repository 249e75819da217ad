import Foundation
import Testing
import TestSupport
@testable import SpotlightIndex

/// A store on a read-only file system (or without write permission) is
/// read as it is: searched, queried, exported; writing fails with a clear
/// error and nothing is created, renamed or changed.
@Suite(.serialized) struct ReadOnlyStoreTests {
    /// A read-only copy of a directory: a read-only tmpfs mount for root
    /// (whom permissions do not stop), permissions for anyone else.
    struct ReadOnlyCopy {
        let mount: URL?
        let root: URL
        private let scratch: ScratchDirectory

        init?(of source: URL) {
            guard let scratch = try? ScratchDirectory("ro") else { return nil }
            self.scratch = scratch
            let base = scratch.url
            if getuid() == 0 {
                guard Self.run("mount", "-t", "tmpfs", "-o", "size=64m", "openspotlight-ro", base.path) else { return nil }
                mount = base
                root = base.appendingPathComponent("home")
                guard (try? FileManager.default.copyItem(at: source, to: root)) != nil,
                      Self.run("mount", "-o", "remount,ro", base.path) else { Self.unmount(base); return nil }
            } else {
                mount = nil
                root = base.appendingPathComponent("home")
                guard (try? FileManager.default.copyItem(at: source, to: root)) != nil else { return nil }
                Self.run("chmod", "-R", "a-w", root.path)
            }
        }

        func cleanUp() {
            if let mount { Self.unmount(mount) } else { Self.run("chmod", "-R", "u+w", root.path) }
            scratch.cleanUp()
        }

        @discardableResult
        static func run(_ arguments: String...) -> Bool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return false }
            process.waitUntilExit()
            return process.terminationStatus == 0
        }

        static func unmount(_ url: URL) { run("umount", url.path) }
    }

    @Test func aStoreThatCannotBeWrittenIsReadAsItIs() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        do {
            let store = try fileStore(dir)
            try store.index((0..<40).map { item("i\($0)", title: "apple \($0)", ["rating": .number(.int(Int64($0 % 5)))]) })
            try store.finishMerging()
        }
        let copy = try #require(ReadOnlyCopy(of: dir.url), "a read-only copy could be made (tmpfs for root, permissions otherwise)")
        defer { copy.cleanUp() }
        let before = try FileManager.default.contentsOfDirectory(atPath: copy.root.appendingPathComponent("org.openspotlight.tests").path).sorted()

        let store = try SpotlightStore(bundleIdentifier: "org.openspotlight.tests", indexName: "shared", location: .directory(copy.root))
        #expect(store.isReadOnly)
        #expect(try store.itemCount() == 40)
        #expect(try store.search("apple", limit: 100).count == 40)
        #expect(try store.items(matching: "rating >= 4").count == 8)
        #expect(try store.item(withIdentifier: "i7")?.item.displayTitle == "apple 7")
        #expect { try store.index([item("new", title: "new")]) } throws: { error in
            (error as? SpotlightIndexError)?.code == .storeUnavailable && "\(error)".contains("readonly")
        }
        let usage = try store.pageUsage()
        #expect {
            try store.compact(whenFreeAbove: 0, minimumBytes: 0)
        } throws: { error in
            (error as? SpotlightIndexError)?.code == .storeUnavailable && "\(error)".contains("read-only")
        }
        #expect(try store.pageUsage() == usage)
        #expect {
            try store.mergeSegments()
        } throws: { error in
            (error as? SpotlightIndexError)?.code == .storeUnavailable && "\(error)".contains("segments cannot be merged")
        }
        // A batch's writes wait in memory where the folder takes no file;
        // its end fails as any write does.
        try store.beginBatch()
        #expect(try store.index([item("batched", title: "batched")]).accepted == 1)
        #expect { try store.endBatch(clientState: Data("b".utf8)) } throws: { error in
            (error as? SpotlightIndexError)?.code == .storeUnavailable
        }
        #expect(!store.isBatchOpen)
        #expect(try FileManager.default.contentsOfDirectory(atPath: copy.root.appendingPathComponent("org.openspotlight.tests").path).sorted() == before,
                "nothing created, renamed or removed")
    }
}
