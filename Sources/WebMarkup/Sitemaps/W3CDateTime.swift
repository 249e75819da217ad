import Foundation

/// W3C Datetime (https://www.w3.org/TR/NOTE-datetime), the format of a sitemap's
/// `<lastmod>`: `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, and `YYYY-MM-DDThh:mm[:ss[.s…]]TZD`
/// with `TZD` = `Z`, `+hh:mm` or `-hh:mm`.
///
/// Also tolerated, because real sitemaps use them: a space or lower-case `t` for `T`,
/// lower-case `z`, `+hhmm` and `+hh` zones, and no zone at all (read as UTC). Values
/// out of range (month 13, 30 February, 25:00) give `nil`. Missing parts are the
/// earliest possible (`2024-05` is 1 May 2024, 00:00 UTC).
enum W3CDateTime {
    static func parse(_ text: String) -> Date? {
        var scanner = Cursor(Array(text.utf8))
        guard let year = scanner.digits(4) else { return nil }
        var month = 1, day = 1, hour = 0, minute = 0, second = 0.0, offset = 0
        if scanner.take(UInt8(ascii: "-")) {
            guard let m = scanner.digits(2) else { return nil }
            month = m
            if scanner.take(UInt8(ascii: "-")) {
                guard let d = scanner.digits(2) else { return nil }
                day = d
                if scanner.take(UInt8(ascii: "T")) || scanner.take(UInt8(ascii: "t")) || scanner.take(UInt8(ascii: " ")) {
                    guard let h = scanner.digits(2), scanner.take(UInt8(ascii: ":")), let mi = scanner.digits(2) else { return nil }
                    hour = h
                    minute = mi
                    if scanner.take(UInt8(ascii: ":")) {
                        guard let s = scanner.digits(2) else { return nil }
                        second = Double(s)
                        if scanner.take(UInt8(ascii: ".")) || scanner.take(UInt8(ascii: ",")) {
                            var scale = 0.1
                            var any = false
                            while let digit = scanner.digits(1) {
                                second += Double(digit) * scale
                                scale /= 10
                                any = true
                            }
                            guard any else { return nil }
                        }
                    }
                    if scanner.take(UInt8(ascii: "Z")) || scanner.take(UInt8(ascii: "z")) {
                        offset = 0
                    } else if let sign = scanner.sign() {
                        guard let zh = scanner.digits(2), zh <= 23 else { return nil }
                        var zm = 0
                        if scanner.take(UInt8(ascii: ":")) {
                            guard let value = scanner.digits(2) else { return nil }
                            zm = value
                        } else if let value = scanner.digits(2) {
                            zm = value
                        }
                        guard zm <= 59 else { return nil }
                        offset = sign * (zh * 3600 + zm * 60)
                    }
                }
            }
        }
        guard scanner.atEnd,
              (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), second < 61
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 - offset) + second
        return Date(timeIntervalSince1970: seconds)
    }

    private static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    private static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private struct Cursor {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func sign() -> Int? {
            if take(UInt8(ascii: "+")) { return 1 }
            if take(UInt8(ascii: "-")) { return -1 }
            return nil
        }

        /// Exactly `count` ASCII digits, or `nil` (consuming nothing).
        mutating func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += count
            return value
        }
    }
}
