import Foundation
import GRDB
import Synchronization

/// The segment files of a store's ranked index: large segments live in
/// `<index name>.ranked/<token>.seg`, written and synced before the row
/// naming them commits, checked against their checksum once per change,
/// and removed only when no row names them.
extension RankedIndex {
    /// One background queue checks every large segment of the process, one
    /// at a time: the check never takes more than one core from queries.
    static let verifier = DispatchQueue(label: "openspotlight.ranked.verify", qos: .background)

    /// The checksum of a segment file read in chunks (header excluded), with
    /// `pread` into one buffer: never mapped, so no page of it counts as the
    /// process's memory.
    static func checksumOfFile(_ path: String) throws -> UInt64 {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw SegmentError.corrupt("cannot open \(path)") }
        defer { close(descriptor) }
        var hasher = SegmentFormat.Checksum()
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var offset = off_t(SegmentFormat.headerSize)
        while true {
            let count = pread(descriptor, buffer.baseAddress, chunk, offset)
            if count < 0 {
                if errno == EINTR { continue }
                throw SegmentError.corrupt("cannot read \(path)")
            }
            if count == 0 { break }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            offset += off_t(count)
        }
        // Read in bulk, the file is in the page cache as large folios (2 MB
        // on ext4), and a query that maps one byte of a folio maps all of
        // it: pages nobody has mapped yet are dropped, so that queries bring
        // them back a page at a time (the maps are MADV_RANDOM).
        _ = posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_DONTNEED))
        return hasher.value
    }

    /// The file name of segment `token`: the token in hexadecimal, `.seg`.
    static func segmentFileName(token: Int64) -> String {
        String(UInt64(token), radix: 16) + ".seg"
    }

    /// A name the index gives its files (``segmentFileName(token:)``).
    /// Nothing else in the folder is ever removed.
    static func isSegmentFileName(_ name: String) -> Bool {
        guard name.hasSuffix(".seg") else { return false }
        let token = name.utf8.dropLast(4)
        return (1...16).contains(token.count) && token.allSatisfy { ("0"..."9").contains(UnicodeScalar($0)) || ("a"..."f").contains(UnicodeScalar($0)) }
    }

    /// Removes segment files no row names (left by a crash between writing
    /// a file and committing). Call inside a write transaction: no other
    /// writer can be between those two steps then.
    func removeOrphanFiles(_ db: Database) throws {
        guard let directory else { return }
        var named = Set(try String.fetchAll(db, sql: "SELECT file FROM ranked_segments WHERE file IS NOT NULL"))
        // Written by a merge still running or waiting to be installed.
        named.formUnion(pendingMergeFiles)
        // Dropped by this transaction but named again if it rolls back.
        named.formUnion(writeState.withLock { $0.droppedFiles.map(\.lastPathComponent) })
        // Only in the store's own folder, and only regular files with a segment's name.
        guard StorePath.kind(directory.path) == .directory else { return }
        let present = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in present where Self.isSegmentFileName(name) && !named.contains(name) {
            let file = directory.appendingPathComponent(name)
            if StorePath.isFile(file.path) { try? FileManager.default.removeItem(at: file) }
        }
        for name in present {
            guard let segment = SegmentVerification.segmentName(ofRecord: name), Self.isSegmentFileName(segment), !named.contains(segment) else { continue }
            SegmentVerification.remove(for: directory.appendingPathComponent(segment))
        }
    }

    /// Writes `bytes` to a new file and syncs it (and the directory), so a
    /// committed row never names a file that a power loss could truncate.
    static func writeSynced(_ bytes: [UInt8], to url: URL, directory: URL) throws {
        try writingSynced(to: url, directory: directory) { file in try bytes.withUnsafeBytes { try file.append($0) } }
    }

    /// Runs `body` with a new file at `url` to write a segment into, then
    /// syncs it and the directory; the file is removed if `body` or the
    /// sync fails.
    static func writingSynced<T>(to url: URL, directory: URL, _ body: (SegmentFile) throws -> T) throws -> T {
        try StorePath.makePrivateDirectory(directory, below: directory.deletingLastPathComponent())
        let file = try SegmentFile(creating: url)
        do {
            let result = try body(file)
            try file.sync()
            let directoryDescriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if directoryDescriptor >= 0 {
                _ = fsync(directoryDescriptor)
                close(directoryDescriptor)
            }
            return result
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
    }
}

/// A new segment file being written (``SegmentSink``): appended to as the
/// encoder goes, its header written at the start last. Created exclusively
/// (never over an existing file or through a link); closed when released.
final class SegmentFile: SegmentSink {
    let url: URL
    private let descriptor: Int32

    init(creating url: URL) throws {
        descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw SpotlightIndexError(.storeUnavailable, "cannot create \(url.path): \(String(cString: strerror(errno)))")
        }
        self.url = url
    }

    deinit { close(descriptor) }

    func append(_ bytes: UnsafeRawBufferPointer) throws {
        try write(bytes, at: nil)
    }

    func writeHeader(_ bytes: UnsafeRawBufferPointer) throws {
        try write(bytes, at: 0)
    }

    /// The segment's folder: a merge's postings wait there (``PostingsSpill``).
    var scratchDirectory: String? { url.deletingLastPathComponent().path }

    func sync() throws {
        guard fsync(descriptor) == 0 else {
            throw SpotlightIndexError(.storeUnavailable, "cannot sync \(url.path): \(String(cString: strerror(errno)))")
        }
    }

    /// All of `bytes`, at the file's position or at `offset`, through short writes and interruptions.
    private func write(_ bytes: UnsafeRawBufferPointer, at offset: Int?) throws {
        var written = 0
        while written < bytes.count {
            let pointer = bytes.baseAddress! + written, count = bytes.count - written
            let result = offset.map { pwrite(descriptor, pointer, count, off_t($0 + written)) } ?? Foundation.write(descriptor, pointer, count)
            if result < 0 {
                if errno == EINTR { continue }
                throw SpotlightIndexError(.storeUnavailable, "cannot write \(url.path): \(String(cString: strerror(errno)))")
            }
            written += result
        }
    }

}
