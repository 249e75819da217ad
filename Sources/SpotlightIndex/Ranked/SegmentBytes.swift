import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The immutable bytes of one segment: a file mapped read-only, or a copy
/// of a blob held in memory. Shared by every query that reads the segment.
final class SegmentBytes: @unchecked Sendable {
    /// Valid for the life of the object; never written.
    let buffer: UnsafeRawBufferPointer
    private let mapped: Bool

    /// Copies `bytes` into memory of its own.
    init(copying bytes: some Collection<UInt8>) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        _ = memory.initializeMemory(as: UInt8.self, from: bytes)
        buffer = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(memory)[0..<bytes.count])
        mapped = false
    }

    /// Maps `path` read-only.
    init(mapping path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
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

    deinit {
        if mapped {
            munmap(UnsafeMutableRawPointer(mutating: buffer.baseAddress), buffer.count)
        } else {
            UnsafeMutableRawPointer(mutating: buffer.baseAddress)?.deallocate()
        }
    }
}
