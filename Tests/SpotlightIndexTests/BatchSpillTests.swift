import Foundation
import Testing
import TestSupport
@testable import SpotlightIndex

/// An open batch's writes kept out of memory (``BatchSpill``) and applied
/// at its end as they were made (``BatchSteps``).
@Suite struct BatchSpillTests {
    static func spilled(_ index: Int) -> BatchSpill.Item {
        let attributes: [String: AttributeValue] = ["title": .string("item \(index) é"), "rating": .number(.int(Int64(index)))]
        let encoded = AttributeCodec.encode(attributes)
        return BatchSpill.Item(uid: "u\(index)", domain: index % 2 == 0 ? "d.\(index % 5)" : nil,
                               contentType: index % 3 == 0 ? "public.item" : nil,
                               expiration: index % 4 == 0 ? Date(timeIntervalSinceReferenceDate: Double(index) + 0.25) : nil,
                               isUpdate: index % 7 == 0, removedAttributes: index % 7 == 0 ? ["keywords", "genre"] : [],
                               attributes: index % 2 == 0 ? BlobCompression.pack(encoded) : encoded, isPacked: index % 2 == 0)
    }

    /// What a write reads back as, comparable.
    static func describe(_ write: BatchSpill.Write) throws -> String {
        switch write {
        case .index(let items):
            return try items.map { item in
                let whole = try item.searchableItem()
                return "\(whole.uniqueIdentifier)|\(whole.domainIdentifier ?? "-")|\(whole.contentType ?? "-")|"
                    + "\(whole.expirationDate?.timeIntervalSinceReferenceDate ?? -1)|\(whole.isUpdate)|\(whole.removedAttributes.sorted())|"
                    + "\(whole.attributes["title"]!)|\(whole.attributes["rating"]!)"
            }.joined(separator: ";")
        case .deleteIdentifiers(let identifiers): return "ids \(identifiers)"
        case .deleteDomains(let domains): return "domains \(domains)"
        case .deleteAll: return "all"
        }
    }

    /// Every kind of write, and more items than a record holds and more
    /// bytes than the buffer holds, read back in order: in a file and in memory.
    @Test(arguments: [true, false])
    func writesComeBackAsTheyWereKept(onDisk: Bool) throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let spill = try BatchSpill(folder: onDisk ? dir.url.path : nil)
        let many = (0..<(BatchSpill.itemsPerRecord * 2 + 5)).map(Self.spilled)
        let writes: [BatchSpill.Write] = [
            .index([Self.spilled(1)]), .deleteIdentifiers(["u1", "ü/../x"]), .index(many), .deleteDomains(["d", ""]), .deleteAll,
            .index(Array(many.prefix(3))), .deleteIdentifiers([]),
        ]
        for write in writes { try spill.append(write) }
        // A large item makes the spill pass its buffer more than once.
        let big = BatchSpill.Item(uid: "big", domain: nil, contentType: nil, expiration: nil, isUpdate: false, removedAttributes: [],
                                  attributes: AttributeCodec.encode(["title": .string("big"), "rating": .number(.int(0)),
                                                                     "textContent": .string(String(repeating: "word ", count: 500_000))]),
                                  isPacked: false)
        try spill.append(.index([big]))
        #expect(spill.byteCount > Int64(BatchSpill.bufferBytes * 2))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).isEmpty, "the file is unlinked as it is made")

        var expected: [String] = []
        for write in writes {
            // Items come back at most a record's worth at a time.
            if case .index(let items) = write {
                for start in stride(from: 0, to: items.count, by: BatchSpill.itemsPerRecord) {
                    expected.append(try Self.describe(.index(Array(items[start..<min(start + BatchSpill.itemsPerRecord, items.count)]))))
                }
            } else {
                expected.append(try Self.describe(write))
            }
        }
        var reader = try spill.reader()
        var read: [String] = []
        var last: BatchSpill.Write?
        while let write = try reader.next() {
            if case .index(let items) = write, items.first?.uid == "big" { last = write } else { read.append(try Self.describe(write)) }
        }
        #expect(read == expected)
        guard case .index(let items)? = last else {
            Issue.record("the large item did not come back")
            return
        }
        #expect(try items.map { try $0.searchableItem().attributes["textContent"] } == [.string(String(repeating: "word ", count: 500_000))])
    }

    /// On disk, a batch's writes are not kept in the store's folder under
    /// any name, and its end applies deletes between runs of items in
    /// their turn, across runs of more items than one step reads.
    @Test func aLargeBatchOnDiskEndsAsTheSameWritesMadeOneByOne() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let count = BatchSteps.runItems + 1_500
        func items(_ round: Int) -> [SearchableItem] {
            (0..<count).map { item("i\($0)", title: "round\(round) item \($0)", domain: "d\($0 % 3)", ["rating": .number(.int(Int64($0 % 10)))]) }
        }
        let writes: [(SpotlightStore) throws -> Void] = [
            { try $0.index(items(1)) },
            { try $0.deleteItems(withIdentifiers: ["i3", "i4", "i\(count - 1)"]) },
            { try $0.index([item("i3", title: "back again")]) },
            { try $0.deleteItems(inDomains: ["d1"]) },
            { try $0.index(Array(items(2).prefix(10))) },
            { try $0.index([SearchableItem(uniqueIdentifier: "i6", attributes: ["keywords": .strings(["updated"])], isUpdate: true),
                            SearchableItem(uniqueIdentifier: "missing", attributes: ["keywords": .strings(["gone"])], isUpdate: true)]) },
        ]
        let reference = try memoryStore()
        for write in writes { try write(reference) }

        let store = try fileStore(dir) { $0.rankedPartialFlushDocuments = 1_000 }
        let folder = try #require(store.fileURL).deletingLastPathComponent().path
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        try store.beginBatch()
        for write in writes { try write(store) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == files)
        #expect(try store.itemCount() == 0, "nothing is visible before the batch ends")
        let report = try store.endBatch(clientState: Data("done".utf8))
        #expect(report.droppedUpdates == ["missing"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == files)

        #expect(try store.identifiers() == reference.identifiers())
        #expect(try store.itemCount() == reference.itemCount())
        for query in ["round1", "round2", "back", "updated", "item 5"] {
            #expect(try store.ids(query, limit: 10_000).sorted() == reference.ids(query, limit: 10_000).sorted(), "\(query)")
        }
        #expect(try store.items(matching: "rating == 7").count == reference.items(matching: "rating == 7").count)
        #expect(try store.item(withIdentifier: "i6")?.item.attributes["keywords"] == .strings(["updated"]))
        #expect(try store.lastClientState() == Data("done".utf8))
    }

    /// Items prepared ahead of a batch (``SpotlightStore/prepare(_:)``)
    /// are kept packed, and come back whole at its end.
    @Test func preparedItemsInABatchComeBackWhole() throws {
        let store = try memoryStore()
        let prepared = store.prepare([item("p", title: "prepared pear", ["rating": .number(.double(2.5))])])
        try store.beginBatch()
        #expect(try store.index(prepared: prepared).accepted == 1)
        try store.endBatch(clientState: Data())
        #expect(try store.ids("pear") == ["p"])
        #expect(try store.item(withIdentifier: "p")?.item.attributes["rating"] == .number(.double(2.5)))
    }

    /// A batch discarded, or refused at its end, leaves nothing behind.
    @Test func aDiscardedOrRefusedBatchLeavesNoFile() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        let store = try fileStore(dir)
        let folder = try #require(store.fileURL).deletingLastPathComponent().path
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        try store.beginBatch()
        try store.index([item("a", title: "alpha")])
        store.discardBatch()
        try store.beginBatch()
        try store.index([item("b", title: "beta")])
        #expect(throws: SpotlightIndexError.self) { try store.endBatch(expectedClientState: Data("other".utf8), newClientState: Data()) }
        #expect(!store.isBatchOpen)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == files)
        #expect(try store.itemCount() == 0)
    }

    /// A disk that fills up refuses the write that does not fit, whole,
    /// and keeps the ones before it and after it (a 3 MB tmpfs, for root).
    @Test(.enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func aFullDiskRefusesTheWriteThatDoesNotFitAndKeepsTheOthers() throws {
        let dir = try ScratchDirectory("spill-full")
        defer { dir.cleanUp() }
        try #require(ReadOnlyStoreTests.ReadOnlyCopy.run("mount", "-t", "tmpfs", "-o", "size=3m", "openspotlight-full", dir.url.path))
        defer { ReadOnlyStoreTests.ReadOnlyCopy.unmount(dir.url) }
        func large(_ uid: String) -> BatchSpill.Item {
            BatchSpill.Item(uid: uid, domain: nil, contentType: nil, expiration: nil, isUpdate: false, removedAttributes: [],
                            attributes: AttributeCodec.encode(["title": .string(uid), "rating": .number(.int(1)),
                                                               "textContent": .string(String(repeating: "x", count: 1_800_000))]),
                            isPacked: false)
        }
        let spill = try BatchSpill(folder: dir.url.path)
        try spill.append(.index([large("first")]))
        let kept = spill.byteCount
        let error = #expect(throws: SpotlightIndexError.self) { try spill.append(.index([Self.spilled(1), large("second")])) }
        #expect(error?.code == .storeUnavailable)
        #expect(error?.message.contains(dir.url.path) == true)
        #expect(spill.byteCount == kept, "nothing of the refused write is kept")
        try spill.append(.deleteIdentifiers(["after"]))
        var reader = try spill.reader()
        var read: [String] = []
        while let write = try reader.next() {
            switch write {
            case .index(let items): read += items.map(\.uid)
            default: read.append(try Self.describe(write))
            }
        }
        #expect(read == ["first", "ids [\"after\"]"])
    }

    /// A spill in a folder that takes no file fails naming the folder (the
    /// store then keeps its batch in memory: ``ReadOnlyStoreTests``).
    @Test func aFolderThatTakesNoFileIsNamed() throws {
        let error = #expect(throws: SpotlightIndexError.self) { try BatchSpill(folder: "/proc/no-such-folder") }
        #expect(error?.code == .storeUnavailable)
        #expect(error?.message.contains("/proc/no-such-folder") == true)
    }
}
