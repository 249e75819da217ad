import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open batch's writes, in the order they were made, kept out of
/// memory until ``SpotlightStore/endBatch(clientState:)`` applies them: a
/// batch of a million items holds a megabyte of them at most, not the
/// million items prepared.
///
/// A store on disk keeps them in a file of its folder that is unlinked as
/// soon as it is made: nothing is left behind when the process dies
/// mid-batch (the batch is lost, as Apple's is, and the app resumes from
/// ``SpotlightStore/lastClientState()``), and no other process can open
/// it. A store in memory keeps them in memory.
///
/// Each item is kept checked, with its attributes encoded
/// (``AttributeCodec``): the batch's end decodes, tokenizes and writes
/// them in one transaction, a run of items prepared while the one before
/// it is written (``BatchSteps``).
///
/// ```swift
/// let spill = try BatchSpill(folder: "/tmp/s/com.example.notes")
/// try spill.append(.deleteIdentifiers(["n1"]))
/// var reader = try spill.reader()
/// while let write = try reader.next() { print(write) }
/// ```
///
/// Not thread-safe: the store appends under its batch lock and reads it
/// once the batch is taken out of it.
final class BatchSpill: @unchecked Sendable {
    /// One write of the batch. Items are kept at most ``itemsPerRecord`` to a record.
    enum Write {
        case index([Item])
        case deleteIdentifiers([String])
        case deleteDomains([String])
        case deleteAll
    }

    /// An item checked by ``ItemValidator``, its attributes encoded.
    struct Item {
        var uid: String
        var domain: String?
        var contentType: String?
        var expiration: Date?
        var isUpdate: Bool
        var removedAttributes: Set<String>
        /// ``AttributeCodec`` bytes, packed by ``BlobCompression`` when `isPacked`.
        var attributes: [UInt8]
        var isPacked: Bool

        /// The item as it was given.
        func searchableItem() throws -> SearchableItem {
            let encoded = isPacked ? try BlobCompression.unpack(attributes) : attributes
            return SearchableItem(uniqueIdentifier: uid, domainIdentifier: domain, contentType: contentType,
                                  expirationDate: expiration, attributes: try AttributeCodec.decode(encoded),
                                  isUpdate: isUpdate, removedAttributes: removedAttributes)
        }
    }

    /// Items a record holds at most, so that reading one back holds few.
    static let itemsPerRecord = 1_024
    /// Bytes kept in memory before they go to the file.
    static let bufferBytes = 1 << 20

    /// The unlinked file; -1 in memory.
    private let descriptor: Int32
    /// Bytes in the file.
    private var written: Int64 = 0
    /// Records not yet in the file (all of them in memory).
    private var buffer: [UInt8] = []
    /// The folder, for messages.
    private let folder: String?

    /// Bytes kept so far, in the file and in memory.
    var byteCount: Int64 { written + Int64(buffer.count) }

    /// A spill in an unlinked file of `folder`, or in memory when `folder` is nil.
    /// - Throws: `.storeUnavailable` when the file cannot be made (the
    ///   store then keeps the batch in memory).
    init(folder: String?) throws {
        self.folder = folder
        guard let folder else {
            descriptor = -1
            return
        }
        var template = Array((folder.hasSuffix("/") ? folder : folder + "/").utf8CString.dropLast()) + Array(".batch-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard made >= 0 else {
            throw SpotlightIndexError(.storeUnavailable, "no file for a batch's writes in \(folder): \(Self.reason(errno))")
        }
        _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
        descriptor = made
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Keeps `write` after the writes before it, whole or not at all.
    /// - Throws: `.storeUnavailable` when the file cannot take it (a full
    ///   disk): then nothing of it is kept, and the writes before it are.
    func append(_ write: Write) throws {
        let mark = byteCount
        do {
            switch write {
            case .index(let items):
                var start = items.startIndex
                while start < items.endIndex {
                    let end = min(start + Self.itemsPerRecord, items.endIndex)
                    try keep { Self.encode(items[start..<end], &$0) }
                    start = end
                }
            case .deleteIdentifiers(let identifiers):
                try keep { Self.encode(kind: .deleteIdentifiers, identifiers, &$0) }
            case .deleteDomains(let domains):
                try keep { Self.encode(kind: .deleteDomains, domains, &$0) }
            case .deleteAll:
                try keep { $0.append(Kind.deleteAll.rawValue) }
            }
        } catch {
            // Back to `mark`: in the file if it went past it, else in the buffer.
            if written > mark {
                _ = ftruncate(descriptor, off_t(mark))
                written = mark
                buffer.removeAll(keepingCapacity: true)
            } else {
                buffer.removeLast(buffer.count - Int(mark - written))
            }
            throw error
        }
    }

    /// Appends one record, its length in front of what `encode` writes
    /// (its kind and payload), and sends the buffer to the file when full.
    private func keep(_ encode: (inout [UInt8]) -> Void) throws {
        var record: [UInt8] = []
        encode(&record)
        AttributeCodec.writeFixed(UInt64(record.count), &buffer)
        buffer += record
        if buffer.count >= Self.bufferBytes { try flush() }
    }

    /// Writes the buffer to the file; on failure the file is cut back to
    /// what it held, and the buffer kept.
    private func flush() throws {
        guard descriptor >= 0, !buffer.isEmpty else { return }
        var done = 0
        let failure: Int32? = buffer.withUnsafeBytes { bytes in
            while done < bytes.count {
                let count = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(written) + off_t(done))
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += count
            }
            return nil
        }
        if let failure {
            _ = ftruncate(descriptor, off_t(written))
            throw SpotlightIndexError(.storeUnavailable, "could not keep the open batch's writes in \(folder ?? "memory"): \(Self.reason(failure)); the batch's earlier writes are kept")
        }
        written += Int64(done)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Reads the writes back from the first, after sending the buffer to the file.
    func reader() throws -> Reader {
        try flush()
        return Reader(spill: self)
    }

    /// The writes in the order they were kept.
    struct Reader {
        fileprivate let spill: BatchSpill
        private var offset: Int64 = 0
        /// Bytes read from the file and not yet decoded.
        private var pending: [UInt8] = []
        private var pendingStart = 0

        fileprivate init(spill: BatchSpill) { self.spill = spill }

        /// The next write; nil after the last.
        /// - Throws: `.storeUnavailable` when the file cannot be read back
        ///   or holds what was not written to it.
        mutating func next() throws -> Write? {
            guard let header = try bytes(8, atEndIsNil: true) else { return nil }
            var lengthReader = AttributeCodec.Reader(bytes: header)
            let length = try lengthReader.fixed()
            guard let record = try bytes(Int(clamping: length), atEndIsNil: false) else { return nil }
            do {
                return try BatchSpill.decode(record)
            } catch {
                throw SpotlightIndexError(.storeUnavailable, "the open batch's writes could not be read back: \(error)")
            }
        }

        /// The next `count` bytes; nil at the end when `atEndIsNil`.
        private mutating func bytes(_ count: Int, atEndIsNil: Bool) throws -> [UInt8]? {
            while pending.count - pendingStart < count {
                pending.removeSubrange(0..<pendingStart)
                pendingStart = 0
                let wanted = max(count - pending.count, BatchSpill.bufferBytes)
                let read = try spill.read(at: offset, upTo: wanted)
                if read.isEmpty {
                    if atEndIsNil, pending.isEmpty { return nil }
                    throw SpotlightIndexError(.storeUnavailable, "the open batch's writes end in the middle of a write")
                }
                offset += Int64(read.count)
                pending += read
            }
            defer { pendingStart += count }
            return Array(pending[pendingStart..<(pendingStart + count)])
        }
    }

    /// Up to `count` bytes of the file (of the buffer, in memory) from `offset`.
    private func read(at offset: Int64, upTo count: Int) throws -> [UInt8] {
        guard descriptor >= 0 else {
            let start = Int(offset)
            return start >= buffer.count ? [] : Array(buffer[start..<min(buffer.count, start + count)])
        }
        var bytes = [UInt8](repeating: 0, count: Int(min(Int64(count), max(0, written - offset))))
        var done = 0
        while done < bytes.count {
            let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offset) + off_t(done)) }
            if read < 0 {
                if errno == EINTR { continue }
                throw SpotlightIndexError(.storeUnavailable, "the open batch's writes could not be read back from \(folder ?? "memory"): \(Self.reason(errno))")
            }
            if read == 0 { break }
            done += read
        }
        return Array(bytes[0..<done])
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    // MARK: - Records

    /// A record: its kind, then its payload.
    private enum Kind: UInt8 {
        case index = 1
        case deleteIdentifiers, deleteDomains, deleteAll
    }

    private enum Flag {
        static let domain: UInt8 = 1, contentType: UInt8 = 2, expiration: UInt8 = 4, update: UInt8 = 8, packed: UInt8 = 16
    }

    private static func encode(_ items: ArraySlice<Item>, _ out: inout [UInt8]) {
        out.append(Kind.index.rawValue)
        AttributeCodec.writeVarint(UInt64(items.count), &out)
        for item in items {
            var flags: UInt8 = 0
            if item.domain != nil { flags |= Flag.domain }
            if item.contentType != nil { flags |= Flag.contentType }
            if item.expiration != nil { flags |= Flag.expiration }
            if item.isUpdate { flags |= Flag.update }
            if item.isPacked { flags |= Flag.packed }
            out.append(flags)
            AttributeCodec.writeString(item.uid, &out)
            if let domain = item.domain { AttributeCodec.writeString(domain, &out) }
            if let type = item.contentType { AttributeCodec.writeString(type, &out) }
            if let expiration = item.expiration { AttributeCodec.writeFixed(expiration.timeIntervalSinceReferenceDate.bitPattern, &out) }
            AttributeCodec.writeVarint(UInt64(item.removedAttributes.count), &out)
            for name in item.removedAttributes { AttributeCodec.writeString(name, &out) }
            AttributeCodec.writeVarint(UInt64(item.attributes.count), &out)
            out += item.attributes
        }
    }

    private static func encode(kind: Kind, _ strings: [String], _ out: inout [UInt8]) {
        out.append(kind.rawValue)
        AttributeCodec.writeVarint(UInt64(strings.count), &out)
        for string in strings { AttributeCodec.writeString(string, &out) }
    }

    private static func decode(_ record: [UInt8]) throws -> Write {
        var reader = AttributeCodec.Reader(bytes: record)
        guard let kind = Kind(rawValue: try reader.byte()) else {
            throw AttributeCodec.DecodingError(description: "unknown kind of write")
        }
        func strings() throws -> [String] { try (0..<reader.count()).map { _ in try reader.string() } }
        let write: Write
        switch kind {
        case .index:
            let count = try reader.count()
            var items: [Item] = []
            items.reserveCapacity(min(count, itemsPerRecord))
            for _ in 0..<count {
                let flags = try reader.byte()
                let uid = try reader.string()
                let domain = flags & Flag.domain != 0 ? try reader.string() : nil
                let type = flags & Flag.contentType != 0 ? try reader.string() : nil
                let expiration = flags & Flag.expiration != 0
                    ? Date(timeIntervalSinceReferenceDate: Double(bitPattern: try reader.fixed())) : nil
                let removed = Set(try strings())
                let attributes = Array(try reader.take(try reader.count()))
                items.append(Item(uid: uid, domain: domain, contentType: type, expiration: expiration,
                                  isUpdate: flags & Flag.update != 0, removedAttributes: removed,
                                  attributes: attributes, isPacked: flags & Flag.packed != 0))
            }
            write = .index(items)
        case .deleteIdentifiers: write = .deleteIdentifiers(try strings())
        case .deleteDomains: write = .deleteDomains(try strings())
        case .deleteAll: write = .deleteAll
        }
        guard reader.isAtEnd else { throw AttributeCodec.DecodingError(description: "trailing bytes after a write") }
        return write
    }
}
