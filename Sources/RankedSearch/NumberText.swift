#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Numbers as explanations print them, through the C library's `printf`
/// directly: the same text as Foundation's `String(format:)`, without its
/// string machinery, which cost more than a store's search when every
/// result of every app explained its score.
///
/// ```swift
/// NumberText.format("%.4g", 0.123456)   // "0.1235"
/// ```
package enum NumberText {
    /// `value` formatted by one `printf` conversion of a `Double` (such as `%.4g`, `%.1f`).
    @_spi(Inspection) public static func format(_ conversion: StaticString, _ value: Double) -> String {
        // 512: `%f` of the largest Double takes 312 bytes.
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 512) { buffer in
            // A string literal's bytes end with a NUL, as vsnprintf needs.
            let format = UnsafeRawPointer(conversion.utf8Start).assumingMemoryBound(to: CChar.self)
            let written = withVaList([value]) { vsnprintf(buffer.baseAddress, buffer.count, format, $0) }
            guard written >= 0, Int(written) < buffer.count else { return String(value) }
            return String(cString: buffer.baseAddress!)
        }
    }

    /// Four significant digits, as `%.4g`.
    package static func short(_ value: Double) -> String { format("%.4g", value) }
}
