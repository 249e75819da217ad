/// The number syntax of the query language and the printer's spelling of
/// numbers: `[+-] digits [. digits] | [+-] . digits`, with an optional
/// exponent (`1e+16`, which is how Swift prints large doubles).
enum QueryNumberText {
    /// The number `text` spells, or `nil` when it is not number syntax.
    /// Overflowing text (`1e999`) gives an infinite value; callers decide.
    static func parse<S: StringProtocol>(_ text: S) -> Double? {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func isDigit(_ i: Int) -> Bool { i < scalars.count && scalars[i] >= "0" && scalars[i] <= "9" }
        if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" { index += 1 }
        var integerDigits = 0
        while isDigit(index) { index += 1; integerDigits += 1 }
        var fractionDigits = 0
        if index < scalars.count, scalars[index] == "." {
            index += 1
            while isDigit(index) { index += 1; fractionDigits += 1 }
            // "5." is not a number; ".5" is.
            guard fractionDigits > 0 else { return nil }
        }
        guard integerDigits + fractionDigits > 0 else { return nil }
        if index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
            index += 1
            if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" { index += 1 }
            var exponentDigits = 0
            while isDigit(index) { index += 1; exponentDigits += 1 }
            guard exponentDigits > 0 else { return nil }
        }
        guard index == scalars.count else { return nil }
        return Double(String(text))
    }

    /// The shortest spelling that parses back to the same `Double`;
    /// integral values have no `.0` (`3`, `-0`, `48.8566`, `1e+16`).
    /// Non-finite values (which the language cannot express) print as
    /// `1e999`, `-1e999` and `nan`.
    static func format(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-1e999" : "1e999" }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}

/// Whole-number `$time` offsets: `[+-] digits`, within `Int`.
enum QueryIntegerText {
    /// The integer `text` spells, or `nil` when it is not `[+-]digits` or overflows `Int`.
    static func parse(_ scalars: ArraySlice<Unicode.Scalar>) -> Int? {
        var index = scalars.startIndex
        var negative = false
        if index < scalars.endIndex, scalars[index] == "+" || scalars[index] == "-" {
            negative = scalars[index] == "-"
            index += 1
        }
        guard index < scalars.endIndex else { return nil }
        var magnitude: UInt64 = 0
        while index < scalars.endIndex {
            let scalar = scalars[index]
            guard scalar >= "0" && scalar <= "9" else { return nil }
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(scalar.value - 48))
            guard !overflow1, !overflow2 else { return nil }
            magnitude = sum
            index += 1
        }
        if negative {
            guard magnitude <= UInt64(Int.max) + 1 else { return nil }
            return magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)
        }
        guard magnitude <= UInt64(Int.max) else { return nil }
        return Int(magnitude)
    }
}
