#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Numbers as explanations print them: the same text as `printf` (and
/// Foundation's `String(format:)`) gives for `%.4g` and `%.1f`.
///
/// Every result of every app explains its score with a dozen numbers, so
/// the two conversions explanations use are made here with exact integer
/// arithmetic (``short(_:)``, ``oneDecimal(_:)``): a call through `printf`
/// cost about as much as reading the result. The value is rounded as
/// `printf` rounds, from its exact binary value, half to even. Values out
/// of the fast path's range (below 1e-5, 1e15 and over, not finite) go
/// through `printf`.
///
/// ```swift
/// NumberText.short(0.123456)      // "0.1235"
/// NumberText.oneDecimal(2.25)     // "2.2"
/// NumberText.format("%.3f", 2.5)  // "2.500"
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
    package static func short(_ value: Double) -> String { fourSignificant(value) ?? format("%.4g", value) }

    /// One decimal, as `%.1f`.
    package static func oneDecimal(_ value: Double) -> String { fixedOneDecimal(value) ?? format("%.1f", value) }

    /// The fast paths cover magnitudes in `[1e-5, 1e15)` (and zero): there
    /// the exact products and quotients fit in 128 bits.
    static let fastRange = 1e-5..<1e15

    /// `%.4g` of `value`, or nil out of ``fastRange``.
    @_spi(Inspection) public static func fourSignificant(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        let sign = value.sign == .minus ? "-" : ""
        if value == 0 { return sign + "0" }
        let magnitude = value.magnitude
        guard fastRange.contains(magnitude) else { return nil }
        // The decimal exponent, corrected once the value is rounded to four digits.
        var exponent = Int(log10(magnitude).rounded(.down))
        var digits: UInt128 = 0
        for _ in 0..<3 {
            digits = roundedScaled(magnitude, byPowerOfTen: 3 - exponent)
            if digits >= 10_000 {
                exponent += 1
            } else if digits < 1_000 {
                exponent -= 1
            } else {
                break
            }
        }
        guard (1_000..<10_000).contains(digits) else { return nil }
        let text = Array(String(digits).utf8)
        if exponent < -4 || exponent >= 4 {
            var mantissa = [text[0]] + Self.withoutTrailingZeros([UInt8(ascii: ".")] + text[1...])
            mantissa += Array("e\(exponent < 0 ? "-" : "+")\(exponent.magnitude < 10 ? "0" : "")\(exponent.magnitude)".utf8)
            return sign + String(decoding: mantissa, as: UTF8.self)
        }
        let fixed: [UInt8]
        if exponent >= 0 {
            fixed = Array(text[...exponent]) + Self.withoutTrailingZeros([UInt8(ascii: ".")] + text[(exponent + 1)...])
        } else {
            fixed = Array("0".utf8) + Self.withoutTrailingZeros(Array(".".utf8) + Array(repeating: UInt8(ascii: "0"), count: -exponent - 1) + text)
        }
        return sign + String(decoding: fixed, as: UTF8.self)
    }

    /// `%.1f` of `value`, or nil out of ``fastRange`` (zero and magnitudes
    /// below 0.05 print as `0.0`, or `-0.0` when negative).
    @_spi(Inspection) public static func fixedOneDecimal(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        let sign = value.sign == .minus ? "-" : ""
        let magnitude = value.magnitude
        guard magnitude < fastRange.upperBound else { return nil }
        // Under a hundredth, ten times the value is far from one half.
        let tenths = magnitude < 0.01 ? 0 : roundedScaled(magnitude, byPowerOfTen: 1)
        return "\(sign)\(tenths / 10).\(tenths % 10)"
    }

    /// `magnitude` × 10^`power`, rounded half to even from the exact binary
    /// value; `magnitude` in ``fastRange`` (or a hundredth and over for a
    /// power of 1) and `power` in -11...8.
    static func roundedScaled(_ magnitude: Double, byPowerOfTen power: Int) -> UInt128 {
        // magnitude = significand × 2^binaryExponent, exactly.
        let significand = UInt128(magnitude.significandBitPattern | (1 << 52))
        let binaryExponent = Int(magnitude.exponent) - 52
        var numerator = significand, denominator: UInt128 = 1
        var ten: UInt128 = 1
        for _ in 0..<power.magnitude { ten *= 10 }
        if power >= 0 { numerator *= ten } else { denominator = ten }
        if binaryExponent >= 0 { numerator <<= binaryExponent } else { denominator <<= -binaryExponent }
        let (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
        let twice = remainder << 1
        return twice > denominator || (twice == denominator && quotient & 1 == 1) ? quotient + 1 : quotient
    }

    private static func withoutTrailingZeros(_ fraction: [UInt8]) -> [UInt8] {
        var fraction = fraction
        while fraction.last == UInt8(ascii: "0") { fraction.removeLast() }
        if fraction == [UInt8(ascii: ".")] { fraction.removeAll() }
        return fraction
    }
}
