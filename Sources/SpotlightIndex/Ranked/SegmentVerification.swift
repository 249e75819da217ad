import Foundation
import RankedSearch

/// A record beside a large segment file saying that its checksum was
/// verified while the file was exactly as it is now: `<token>.seg.ok`
/// holds the file's device, inode, size and change time (`ctime`, which no
/// write can leave unchanged and no user can set) and the checksum.
///
/// Segment files are immutable, so a file whose identity still matches its
/// record is the file that was verified, and is used at once; any other —
/// no record (written by an older version, or the record lost), or a file
/// written to since (damage in place) — is checksummed whole before its
/// first use, and refused if it fails. The writer records each file it
/// writes (it knows the checksum it just encoded); a reader that verified
/// one records it, when it may write the folder.
///
/// ```swift
/// if !SegmentVerification.isVerified(url, checksum: segment.storedChecksum) {
///     guard try RankedIndex.checksumOfFile(url.path) == segment.storedChecksum else { throw SegmentError.corrupt("…") }
///     SegmentVerification.record(url, checksum: segment.storedChecksum)
/// }
/// ```
enum SegmentVerification {
    /// The record's name beside a segment file.
    static func recordURL(for segment: URL) -> URL {
        URL(fileURLWithPath: segment.path + ".ok")
    }

    /// The segment file a record names, if `name` is a record's name.
    static func segmentName(ofRecord name: String) -> String? {
        name.hasSuffix(".seg.ok") ? String(name.dropLast(3)) : nil
    }

    /// What identifies one version of a file: device, inode, size, change time.
    static func identity(of path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return "\(info.st_dev) \(info.st_ino) \(info.st_size) \(info.st_ctim.tv_sec) \(info.st_ctim.tv_nsec)"
    }

    /// True when the record beside `segment` matches the file as it is and the checksum.
    static func isVerified(_ segment: URL, checksum: UInt64) -> Bool {
        guard let identity = identity(of: segment.path), StorePath.isFile(recordURL(for: segment).path),
              let data = FileManager.default.contents(atPath: recordURL(for: segment).path) else { return false }
        return String(decoding: data, as: UTF8.self) == line(identity: identity, checksum: checksum)
    }

    /// How long a record is trusted before a process loading its segment
    /// reads the file again in the background, for damage below the file
    /// system (``RankedIndex``): a day. Every load used to: a service over
    /// 20 stores of 50,000 items read ~480 MB at start, and dropped the
    /// pages its searches had not mapped yet from the page cache (they
    /// came back from disk, ~26,000 major faults over the next 9,600
    /// keystrokes). A check that passes records the file again.
    static let recheckInterval: TimeInterval = 86_400

    /// Whether a verified file is due to be read again: its record is at
    /// least ``recheckInterval`` old (or its age cannot be read).
    static func isDueForRecheck(_ segment: URL, now: Date = Date()) -> Bool {
        var info = stat()
        guard lstat(recordURL(for: segment).path, &info) == 0 else { return true }
        let written = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        return now.timeIntervalSince1970 - written >= recheckInterval
    }

    /// Records that `segment`, as it is now, has `checksum` (best effort: a
    /// reader that cannot write the folder verifies again next time).
    static func record(_ segment: URL, checksum: UInt64) {
        guard let identity = identity(of: segment.path) else { return }
        let target = recordURL(for: segment)
        let temporary = URL(fileURLWithPath: target.path + ".\(UInt32.random(in: 0...UInt32.max)).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        let bytes = Array(line(identity: identity, checksum: checksum).utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        // rename() replaces a record but never writes through a link at the target.
        if written != bytes.count || StorePath.kind(target.path) == .link || rename(temporary.path, target.path) != 0 {
            unlink(temporary.path)
        }
    }

    /// Removes the record of a segment file that is gone.
    static func remove(for segment: URL) {
        let record = recordURL(for: segment)
        if StorePath.isFile(record.path) { unlink(record.path) }
    }

    private static func line(identity: String, checksum: UInt64) -> String {
        "openspotlight-segment-verified 1 \(identity) \(String(checksum, radix: 16))\n"
    }
}
