#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fixed set of names (attribute names: short, mostly ASCII), each
/// known by its position in the list the set was made from, looked up by
/// the names' UTF-8 bytes.
///
/// Preparing an item looks each of its attribute names up three times
/// (its kind, its text column, whether its strings are listed as exact
/// values). Through `Dictionary<String, _>` or `Set<String>` each lookup
/// hashed the name with SipHash, ~400 instructions; here it is
/// ``TokenHash`` over its bytes and one comparison. Not generic, so that
/// other modules call it compiled, not through witness tables.
///
/// ```swift
/// let columns = NameLookup(["title", "keywords"])
/// columns.id(of: "keywords")     // 1
/// columns.id(of: "textContent")  // nil
/// ```
package struct NameLookup: Sendable {
    /// Every name's bytes, one after the other.
    private let bytes: [UInt8]
    /// Where each name's bytes start in `bytes`, and one past the last.
    private let starts: [Int]
    private let hashes: [UInt64]
    /// Open addressing: a position in the names, or -1.
    private let slots: [Int32]

    /// The set of `names`, each known by its position (a repeated name by its first).
    package init(_ names: [String]) {
        var bytes: [UInt8] = [], starts = [0], hashes: [UInt64] = []
        for name in names {
            bytes += name.utf8
            starts.append(bytes.count)
            hashes.append(Array(name.utf8).withUnsafeBufferPointer { TokenHash.of($0) })
        }
        var size = 16
        while size < hashes.count * 2 { size *= 2 }
        var slots = [Int32](repeating: -1, count: size)
        for (index, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & (size - 1)
            var repeated = false
            while slots[slot] >= 0 {
                let other = Int(slots[slot])
                if bytes[starts[other]..<starts[other + 1]].elementsEqual(bytes[starts[index]..<starts[index + 1]]) { repeated = true }
                slot = (slot + 1) & (size - 1)
            }
            if !repeated { slots[slot] = Int32(index) }
        }
        (self.bytes, self.starts, self.hashes, self.slots) = (bytes, starts, hashes, slots)
    }

    /// The position of `name` among the names, nil when it is not one of them.
    package func id(of name: String) -> Int? {
        if let found = name.utf8.withContiguousStorageIfAvailable({ id(of: $0) }) { return found }
        return Array(name.utf8).withUnsafeBufferPointer { id(of: $0) }
    }

    /// Whether `name` is one of the names.
    package func contains(_ name: String) -> Bool { id(of: name) != nil }

    private func id(of name: UnsafeBufferPointer<UInt8>) -> Int? {
        let hash = TokenHash.of(name)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        return bytes.withUnsafeBufferPointer { all in
            while true {
                let index = Int(slots[slot])
                guard index >= 0 else { return nil }
                let start = starts[index]
                if hashes[index] == hash, starts[index + 1] - start == name.count,
                   name.isEmpty || memcmp(all.baseAddress! + start, name.baseAddress!, name.count) == 0 {
                    return index
                }
                slot = (slot + 1) & mask
            }
        }
    }
}
