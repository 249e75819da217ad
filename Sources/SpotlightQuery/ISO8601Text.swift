public import Foundation

/// ISO-8601 date text as the query language reads and writes it
/// (`$time.iso(…)`, quoted ISO dates compared with date attributes).
///
/// Read: `YYYY-MM-DD`, optionally followed by `T`, `t` or a space and
/// `hh:mm[:ss[.fraction]]`, optionally followed (spaces allowed) by `Z`,
/// `±hh`, `±hh:mm` or `±hhmm`. Years are 4 digits, or a sign and 4–6 digits.
/// Text without a zone is read as UTC — in particular a date alone is
/// 00:00 UTC (the parser has no time zone; see ``QueryParser``).
/// Written: `YYYY-MM-DDThh:mm:ssZ`, with as many fractional-second digits
/// as it takes to read back the identical `Date`.
enum ISO8601Text {
    /// The instant `text` spells, or `nil`.
    static func parse(_ text: String) -> Date? {
        var scalars = Array(text.unicodeScalars)[...]
        while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        var reader = Reader(scalars: Array(scalars))
        return reader.read()
    }

    private struct Reader {
        let scalars: [Unicode.Scalar]
        var index = 0

        func peek() -> Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        mutating func take(_ scalar: Unicode.Scalar) -> Bool {
            guard peek() == scalar else { return false }
            index += 1
            return true
        }

        mutating func digits(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let scalar = peek(), scalar >= "0", scalar <= "9" else { return nil }
                value = value * 10 + Int(scalar.value - 48)
                index += 1
            }
            return value
        }

        mutating func digitRun(maximum: Int) -> [Unicode.Scalar] {
            var run: [Unicode.Scalar] = []
            while let scalar = peek(), scalar >= "0", scalar <= "9", run.count < maximum {
                run.append(scalar)
                index += 1
            }
            return run
        }

        mutating func read() -> Date? {
            // Year.
            var sign = 1
            var signed = false
            if peek() == "+" || peek() == "-" {
                signed = true
                sign = peek() == "-" ? -1 : 1
                index += 1
            }
            let yearDigits = digitRun(maximum: 7)
            guard signed ? (4...6).contains(yearDigits.count) : yearDigits.count == 4 else { return nil }
            let year = sign * yearDigits.reduce(0) { $0 * 10 + Int($1.value - 48) }
            guard take("-"), let month = digits(2), take("-"), let day = digits(2) else { return nil }
            guard (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: year, month: month) else {
                return nil
            }
            var seconds = CivilDate.days(year: year, month: month, day: day) * 86_400
            var fraction = 0.0
            if index == scalars.count { return Self.date(seconds: seconds, fraction: 0) }

            // Time.
            guard take("T") || take("t") || take(" ") else { return nil }
            guard let hour = digits(2), take(":"), let minute = digits(2), hour < 24, minute < 60 else { return nil }
            seconds += hour * 3600 + minute * 60
            if take(":") {
                guard let second = digits(2), second < 60 else { return nil }
                seconds += second
                if take(".") || take(",") {
                    let fractionDigits = digitRun(maximum: Int.max)
                    guard !fractionDigits.isEmpty else { return nil }
                    var view = String.UnicodeScalarView()
                    view.append(contentsOf: "0.".unicodeScalars)
                    view.append(contentsOf: fractionDigits)
                    guard let value = Double(String(view)) else { return nil }
                    fraction = value
                }
            }

            // Zone.
            while let scalar = peek(), scalar == " " { index += 1 }
            if index == scalars.count { return Self.date(seconds: seconds, fraction: fraction) }
            if take("Z") || take("z") {
                // UTC.
            } else if let scalar = peek(), scalar == "+" || scalar == "-" {
                index += 1
                let zoneSign = scalar == "-" ? -1 : 1
                guard let zoneHours = digits(2), zoneHours < 24 else { return nil }
                var zoneMinutes = 0
                if take(":") {
                    guard let minutes = digits(2) else { return nil }
                    zoneMinutes = minutes
                } else if index < scalars.count {
                    guard let minutes = digits(2) else { return nil }
                    zoneMinutes = minutes
                }
                guard zoneMinutes < 60 else { return nil }
                seconds -= zoneSign * (zoneHours * 3600 + zoneMinutes * 60)
            } else {
                return nil
            }
            guard index == scalars.count else { return nil }
            return Self.date(seconds: seconds, fraction: fraction)
        }

        static func date(seconds sinceEpoch: Int, fraction: Double) -> Date {
            Date(timeIntervalSinceReferenceDate: Double(sinceEpoch - CivilDate.referenceDateOffset) + fraction)
        }
    }

    /// Seconds since 2001 beyond which dates are not written exactly (years ±999,999).
    static let writableRange: ClosedRange<Double> = {
        let lower = CivilDate.days(year: -999_999, month: 1, day: 1) * 86_400
        let upper = (CivilDate.days(year: 999_999, month: 12, day: 31) + 1) * 86_400 - 1
        return Double(lower - CivilDate.referenceDateOffset)...Double(upper - CivilDate.referenceDateOffset)
    }()

    /// `YYYY-MM-DDThh:mm:ss[.fraction]Z` for a date; reads back to the identical `Date`
    /// for every date in years −999,999…999,999 except instants strictly between
    /// 2000-12-31T23:59:59Z and 2001-01-01T00:00:00Z that carry a sub-nanosecond
    /// residue. Dates outside that range are clamped to it; non-finite ones print as
    /// the clamped extreme.
    static func format(_ date: Date) -> String {
        var interval = date.timeIntervalSinceReferenceDate
        if interval.isNaN { interval = 0 }
        interval = min(max(interval, writableRange.lowerBound), writableRange.upperBound)
        let whole = interval.rounded(.down)
        let fraction = interval - whole
        let sinceEpoch = Int(whole) + CivilDate.referenceDateOffset
        let days = CivilDate.floorDivide(sinceEpoch, 86_400)
        let secondOfDay = sinceEpoch - days * 86_400
        let (year, month, day) = CivilDate.civil(days: days)
        var text = ""
        if (0...9999).contains(year) {
            text += pad(year, 4)
        } else {
            text += (year < 0 ? "-" : "+") + pad(abs(year), 4)
        }
        text += "-" + pad(month, 2) + "-" + pad(day, 2)
        text += "T" + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if fraction > 0 { text += "." + fractionDigits(whole: whole, fraction: fraction, interval: interval) }
        return text + "Z"
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// The fewest fractional-second digits `d` such that `whole + Double("0." + d)`
    /// is `interval` again — the same sum ``parse(_:)`` computes.
    private static func fractionDigits(whole: Double, fraction: Double, interval: Double) -> String {
        var scale = 1.0
        for count in 1...17 {
            scale *= 10
            let scaled = (fraction * scale).rounded()
            guard scaled >= 1, scaled < scale else { continue }
            let digits = String(Int64(scaled))
            let padded = String(repeating: "0", count: count - digits.count) + digits
            if let value = Double("0." + padded), whole + value == interval {
                var trimmed = Substring(padded)
                while trimmed.last == "0" { trimmed.removeLast() }
                return String(trimmed)
            }
        }
        return exactDigits(fraction)
    }

    /// The shortest decimal digits `d` such that `Double("0." + d) == fraction` (0 < fraction < 1).
    private static func exactDigits(_ fraction: Double) -> String {
        let text = fraction.description  // "0.125" or "1.25e-05"
        if let e = text.firstIndex(of: "e") {
            let mantissa = text[..<e].replacingOccurrences(of: ".", with: "")
            let exponent = Int(text[text.index(after: e)...]) ?? 0  // negative
            return String(repeating: "0", count: max(-exponent - 1, 0)) + mantissa
        }
        guard let dot = text.firstIndex(of: ".") else { return "0" }
        return String(text[text.index(after: dot)...])
    }
}
extension TimeExpression {
    /// Reads ISO-8601 text the way `$time.iso(…)` and quoted date strings do:
    /// `2025-06-18T15:00:00Z`, `2025-06-18 15:00:00 +0800`, `2025-06-18T15:00:00.250+02:00`,
    /// `2025-06-18` (00:00 UTC; text without a zone is read as UTC).
    ///
    /// ```swift
    /// let date = TimeExpression.parseISO8601("2025-06-18T00:00:00Z")
    /// date?.timeIntervalSinceReferenceDate   // 771897600
    /// ```
    public static func parseISO8601(_ text: String) -> Date? {
        ISO8601Text.parse(text)
    }

    /// Writes a date as UTC ISO-8601 text that ``parseISO8601(_:)`` reads back
    /// to the identical `Date` (fractional seconds only when present).
    ///
    /// ```swift
    /// TimeExpression.iso8601Text(Date(timeIntervalSinceReferenceDate: 771897600.5))
    /// // "2025-06-18T00:00:00.5Z"
    /// ```
    public static func iso8601Text(_ date: Date) -> String {
        ISO8601Text.format(date)
    }
}
