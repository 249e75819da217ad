/// A 128-bit hash of bytes (two independent 64-bit FNV-1a), the same in
/// every process and run (no seeded `Hasher`): names derived from content.
///
/// ```swift
/// let name = TermHash(of: Array("text".utf8)).hex   // 32 hex digits
/// ```
package struct TermHash: Hashable, Sendable {
    var a: UInt64
    var b: UInt64

    init(a: UInt64, b: UInt64) {
        self.a = a
        self.b = b
    }

    /// The hash of a whole byte sequence.
    package init(of bytes: some Sequence<UInt8>) {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0x84222325_cbf29ce4
        for byte in bytes {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = (b ^ (UInt64(byte) &+ 0x9e)) &* 0x0000_0001_0000_0193
        }
        self.init(a: a, b: b)
    }

    /// 32 lowercase hexadecimal digits.
    package var hex: String {
        func digits(_ value: UInt64) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }
        return digits(a) + digits(b)
    }
}
