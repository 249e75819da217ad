import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The immutable bytes of one segment: a file mapped read-only, or a copy
/// of a blob held in memory. Shared by every query that reads the segment.
package final class SegmentBytes: @unchecked Sendable {
    /// Valid for the life of the object; never written.
    package let buffer: UnsafeRawBufferPointer
    private let mapped: Bool

    /// Copies `bytes` into memory of its own.
    ///
    /// Called from other modules this is not specialized: contiguous bytes
    /// (an array, `Data`) are copied at once, not a byte at a time through
    /// the generic collection.
    package init(copying bytes: some Collection<UInt8>) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        let copied: Void? = bytes.withContiguousStorageIfAvailable { source in
            if let base = source.baseAddress { memory.baseAddress!.copyMemory(from: base, byteCount: source.count) }
        }
        if copied == nil { _ = memory.initializeMemory(as: UInt8.self, from: bytes) }
        buffer = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(memory)[0..<bytes.count])
        mapped = false
    }

    /// Memory of its own, `count` bytes filled by `fill`: a blob copied
    /// once, from where it lies, with no buffer in between.
    ///
    /// ```swift
    /// let bytes = try SegmentBytes(count: length) { memory in memory.copyMemory(from: UnsafeRawBufferPointer(start: blob, count: length)) }
    /// ```
    package init(count: Int, fill: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 16)
        do {
            try fill(UnsafeMutableRawBufferPointer(rebasing: memory[0..<count]))
        } catch {
            memory.deallocate()
            throw error
        }
        buffer = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(memory)[0..<count])
        mapped = false
    }

    /// Maps `path` read-only.
    package init(mapping path: String) throws {
        // Never through a link: a segment file is one the store wrote itself.
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw SegmentError.corrupt("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw SegmentError.corrupt("cannot stat \(path)") }
        let size = Int(info.st_size)
        guard size > 0 else { throw SegmentError.corrupt("\(path) is empty") }
        guard let address = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0), address != MAP_FAILED else {
            throw SegmentError.corrupt("cannot map \(path): \(String(cString: strerror(errno)))")
        }
        // Queries touch scattered pages (dictionary probes, postings blocks,
        // one document's fields): read-ahead would only make more resident.
        _ = madvise(address, size, MADV_RANDOM)
        buffer = UnsafeRawBufferPointer(start: address, count: size)
        mapped = true
    }

    /// Drops the pages of `range` (byte offsets) from this process's
    /// resident memory, when the bytes are a mapped file: they stay in the
    /// kernel's page cache, and touching them again maps them back (a
    /// minor fault a page). For long scans a query makes once (every term
    /// of a dictionary, a large range of typed values), which would
    /// otherwise keep the whole section resident.
    func release(_ range: Range<Int>, minimum: Int = SegmentBytes.releaseMinimum) {
        guard mapped, range.count >= minimum, let base = buffer.baseAddress else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        // From the page holding the first byte: ranges released one after
        // the other (a merge's, as it reads) leave no page between them
        // resident. A page shared with bytes before the range only maps
        // back if they are read again.
        let start = (Int(bitPattern: base) + range.lowerBound) / page * page
        let end = (Int(bitPattern: base) + min(range.upperBound, buffer.count)) / page * page
        guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(pointer, end - start, MADV_DONTNEED)
    }

    /// Ranges shorter than this are left resident: releasing them saves little.
    static let releaseMinimum = 1 << 20

    deinit {
        if mapped {
            munmap(UnsafeMutableRawPointer(mutating: buffer.baseAddress), buffer.count)
        } else {
            UnsafeMutableRawPointer(mutating: buffer.baseAddress)?.deallocate()
        }
    }
}
