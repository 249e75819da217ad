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

    /// Appends ``short(_:)`` of `value` to `text`: an explanation is built in
    /// one buffer, not from a dozen strings (which cost a third of it).
    package static func appendShort(_ value: Double, to text: inout [UInt8]) {
        if !appendFourSignificant(value, to: &text) { text += format("%.4g", value).utf8 }
    }

    /// Appends ``oneDecimal(_:)`` of `value` to `text`.
    package static func appendOneDecimal(_ value: Double, to text: inout [UInt8]) {
        if !appendFixedOneDecimal(value, to: &text) { text += format("%.1f", value).utf8 }
    }

    /// The fast paths cover magnitudes in `[1e-5, 1e15)` (and zero): there
    /// the exact products and quotients fit in 128 bits.
    static let fastRange = 1e-5..<1e15

    /// `%.4g` of `value`, or nil out of ``fastRange``.
    @_spi(Inspection) public static func fourSignificant(_ value: Double) -> String? {
        var text: [UInt8] = []
        return appendFourSignificant(value, to: &text) ? String(decoding: text, as: UTF8.self) : nil
    }

    /// `%.1f` of `value`, or nil out of ``fastRange`` (zero and magnitudes
    /// below 0.05 print as `0.0`, or `-0.0` when negative).
    @_spi(Inspection) public static func fixedOneDecimal(_ value: Double) -> String? {
        var text: [UInt8] = []
        return appendFixedOneDecimal(value, to: &text) ? String(decoding: text, as: UTF8.self) : nil
    }

    /// Appends `%.4g` of `value` and returns true, or appends nothing and
    /// returns false out of ``fastRange``.
    static func appendFourSignificant(_ value: Double, to text: inout [UInt8]) -> Bool {
        guard value.isFinite else { return false }
        let magnitude = value.magnitude
        guard value == 0 || fastRange.contains(magnitude) else { return false }
        if value.sign == .minus { text.append(UInt8(ascii: "-")) }
        if value == 0 {
            text.append(UInt8(ascii: "0"))
            return true
        }
        // The decimal exponent, corrected once the value is rounded to four digits.
        var exponent = Int(log10(magnitude).rounded(.down))
        var scaled: UInt128 = 0
        for _ in 0..<3 {
            scaled = roundedScaled(magnitude, byPowerOfTen: 3 - exponent)
            if scaled >= 10_000 {
                exponent += 1
            } else if scaled < 1_000 {
                exponent -= 1
            } else {
                break
            }
        }
        guard (1_000..<10_000).contains(scaled) else {
            if value.sign == .minus { text.removeLast() }
            return false
        }
        let number = Int(scaled)
        func digit(_ index: Int) -> UInt8 {
            let place = index == 0 ? 1_000 : index == 1 ? 100 : index == 2 ? 10 : 1
            return UInt8(ascii: "0") + UInt8(number / place % 10)
        }
        // The digits after the last one that is not zero are dropped, as `%g` drops them.
        var significant = 4
        while significant > 1, digit(significant - 1) == UInt8(ascii: "0") { significant -= 1 }
        if exponent < -4 || exponent >= 4 {
            text.append(digit(0))
            if significant > 1 {
                text.append(UInt8(ascii: "."))
                for index in 1..<significant { text.append(digit(index)) }
            }
            text.append(UInt8(ascii: "e"))
            text.append(UInt8(ascii: exponent < 0 ? "-" : "+"))
            appendInteger(UInt64(exponent.magnitude), minimumDigits: 2, to: &text)
        } else if exponent >= 0 {
            for index in 0...exponent { text.append(digit(index)) }
            if significant > exponent + 1 {
                text.append(UInt8(ascii: "."))
                for index in (exponent + 1)..<significant { text.append(digit(index)) }
            }
        } else {
            text.append(UInt8(ascii: "0"))
            text.append(UInt8(ascii: "."))
            for _ in 0..<(-exponent - 1) { text.append(UInt8(ascii: "0")) }
            for index in 0..<significant { text.append(digit(index)) }
        }
        return true
    }

    /// Appends `%.1f` of `value` and returns true, or appends nothing and
    /// returns false out of ``fastRange``.
    static func appendFixedOneDecimal(_ value: Double, to text: inout [UInt8]) -> Bool {
        guard value.isFinite else { return false }
        let magnitude = value.magnitude
        guard magnitude < fastRange.upperBound else { return false }
        // Under a hundredth, ten times the value is far from one half.
        let tenths = magnitude < 0.01 ? 0 : roundedScaled(magnitude, byPowerOfTen: 1)
        if value.sign == .minus { text.append(UInt8(ascii: "-")) }
        appendInteger(UInt64(tenths / 10), minimumDigits: 1, to: &text)
        text.append(UInt8(ascii: "."))
        text.append(UInt8(ascii: "0") + UInt8(tenths % 10))
        return true
    }

    /// Appends `value` in decimal, with leading zeros up to `minimumDigits`.
    static func appendInteger(_ value: UInt64, minimumDigits: Int, to text: inout [UInt8]) {
        let start = text.count
        var rest = value
        repeat {
            text.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0 || text.count - start < minimumDigits
        text[start...].reverse()
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
}
