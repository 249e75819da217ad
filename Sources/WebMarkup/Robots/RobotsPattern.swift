// Robots path patterns (RFC 9309 §2.2.2–2.2.3), the internal half of ``RobotsTxt``.
//
// Interface:
//   RobotsPattern.normalize(_:)   percent-encoding normalisation applied to both the
//                                 rule's pattern and the URL's path before comparing
//   RobotsPattern(_:)             compiles a normalised pattern (`*` wildcard, `$` end anchor)
//   pattern.matches(_:)           does the pattern match a prefix of the path (or all of it with `$`)
//   pattern.length                the octet count used for "longest match wins"
//
// Matching never backtracks: the pattern is split on `*` into literal segments; the
// first must be a prefix of the path, each later one is found at its leftmost place
// after the previous one (leftmost is always the best choice, as it leaves the most
// path for the rest), and with `$` the last segment must end the path. Each segment
// search is Knuth–Morris–Pratt, so a pattern costs O(path + pattern) whatever its `*`s.

struct RobotsPattern: Sendable {
    /// The literal pieces between `*`s (empty pieces where `*`s touch or sit at an end).
    let segments: [[UInt8]]
    /// True when the pattern ended in `$`: the match must reach the end of the path.
    let anchored: Bool
    /// The KMP failure table of each segment, for ``find(_:in:from:)``.
    private let failures: [[Int]]
    /// The normalised pattern's length in octets, `*` and `$` included.
    let length: Int

    /// Compiles a pattern already passed through ``normalize(_:)``.
    init(_ normalized: [UInt8]) {
        length = normalized.count
        var body = normalized[...]
        if body.last == UInt8(ascii: "$") {
            anchored = true
            body = body.dropLast()
        } else {
            anchored = false
        }
        segments = body.split(separator: UInt8(ascii: "*"), omittingEmptySubsequences: false).map(Array.init)
        failures = segments.map(Self.failureTable)
    }

    func matches(_ path: [UInt8]) -> Bool {
        let first = segments[0]
        if segments.count == 1 {
            return anchored ? path == first : path.starts(with: first)
        }
        guard path.starts(with: first) else { return false }
        var position = first.count
        for index in 1..<segments.count - 1 {
            guard let found = find(index, in: path, from: position) else { return false }
            position = found + segments[index].count
        }
        let last = segments[segments.count - 1]
        if anchored {
            return path.count - position >= last.count && path.suffix(last.count).elementsEqual(last)
        }
        return find(segments.count - 1, in: path, from: position) != nil
    }

    /// The leftmost index at or after `start` where the segment occurs in `haystack`
    /// (Knuth–Morris–Pratt: linear, with no backtracking over the haystack).
    private func find(_ index: Int, in haystack: [UInt8], from start: Int) -> Int? {
        let needle = segments[index]
        if needle.isEmpty { return start }
        guard haystack.count - start >= needle.count else { return nil }
        let failure = failures[index]
        var matched = 0
        for position in start..<haystack.count {
            let byte = haystack[position]
            while matched > 0 && needle[matched] != byte { matched = failure[matched - 1] }
            if needle[matched] == byte { matched += 1 }
            if matched == needle.count { return position - needle.count + 1 }
        }
        return nil
    }

    /// KMP's table: for each prefix of `needle`, the length of its longest proper prefix that is also a suffix.
    private static func failureTable(_ needle: [UInt8]) -> [Int] {
        var table = [Int](repeating: 0, count: needle.count)
        var length = 0
        var index = 1
        while index < needle.count {
            if needle[index] == needle[length] {
                length += 1
                table[index] = length
                index += 1
            } else if length > 0 {
                length = table[length - 1]
            } else {
                index += 1
            }
        }
        return table
    }

    /// Puts a pattern or a URL's path-and-query into one canonical percent-encoded form,
    /// so that equal resources compare equal octet by octet (RFC 9309 §2.2.2):
    /// - octets outside printable US-ASCII (UTF-8 of non-ASCII text, controls, space) are percent-encoded;
    /// - `%XX` of an unreserved character (`A–Z a–z 0–9 - . _ ~`) is decoded;
    /// - any other `%XX` is kept encoded, with upper-case hex (`%2f` → `%2F`), so an
    ///   encoded `/` never matches a real `/`.
    static func normalize<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8] {
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "%"), index + 2 < input.count,
               let high = HexDigit.value(input[index + 1]), let low = HexDigit.value(input[index + 2]) {
                let decoded = high << 4 | low
                if isUnreserved(decoded) {
                    output.append(decoded)
                } else {
                    output.append(contentsOf: [UInt8(ascii: "%"), hexDigits[Int(high)], hexDigits[Int(low)]])
                }
                index += 3
                continue
            }
            if byte <= 0x20 || byte >= 0x7F {
                output.append(contentsOf: [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]])
            } else {
                output.append(byte)
            }
            index += 1
        }
        return output
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
