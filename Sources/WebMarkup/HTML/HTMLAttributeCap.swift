import Foundation

/// Keeps at most ``maximumAttributes`` attributes per tag before a page
/// reaches libxml2, whose HTML parser checks each attribute of a tag against
/// all the ones before it: one tag with 200,000 attributes took minutes.
/// Apple's crawler reads a handful of attributes per element; a tag with
/// more than 256 is not markup anyone writes by hand.
///
/// A linear scan over the bytes (ASCII-compatible encodings: UTF-8, Latin-1,
/// Windows-1252…) finds tags as an HTML tokenizer does — comments and the
/// raw text of `script`, `style`, `textarea` and `title` are skipped — and
/// cuts the attributes past the limit up to the tag's `>`. Pages with no
/// such tag are returned untouched (`nil`: nothing copied).
///
/// ```swift
/// let safe = HTMLAttributeCap.capped(data) ?? data
/// ```
enum HTMLAttributeCap {
    /// Attributes kept per tag.
    static let maximumAttributes = 256

    /// The page with every tag's attributes past the limit removed, or nil when no tag has that many.
    static func capped(_ data: Data, maximumAttributes: Int = maximumAttributes) -> Data? {
        data.withUnsafeBytes { raw -> Data? in
            let bytes = raw.bindMemory(to: UInt8.self)
            let n = bytes.count
            var output: Data?
            var copiedUpTo = 0
            var i = 0
            @inline(__always) func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D }
            @inline(__always) func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
            func find(_ needle: [UInt8], from start: Int, caseInsensitive: Bool) -> Int? {
                guard needle.count <= n else { return nil }
                var index = start
                while index + needle.count <= n {
                    var matched = true
                    for (offset, expected) in needle.enumerated() {
                        let byte = bytes[index + offset]
                        if (caseInsensitive ? byte | 0x20 : byte) != expected { matched = false; break }
                    }
                    if matched { return index }
                    index += 1
                }
                return nil
            }
            while i < n {
                guard bytes[i] == UInt8(ascii: "<") else { i += 1; continue }
                if i + 3 < n, bytes[i + 1] == UInt8(ascii: "!"), bytes[i + 2] == UInt8(ascii: "-"), bytes[i + 3] == UInt8(ascii: "-") {
                    i = (find(Array("-->".utf8), from: i + 4, caseInsensitive: false).map { $0 + 3 }) ?? n
                    continue
                }
                guard i + 1 < n, isLetter(bytes[i + 1]) else { i += 1; continue }
                // The tag name.
                var j = i + 1
                var name: [UInt8] = []
                while j < n, !isSpace(bytes[j]), bytes[j] != UInt8(ascii: ">"), bytes[j] != UInt8(ascii: "/") {
                    if name.count < 16 { name.append(bytes[j] | 0x20) }
                    j += 1
                }
                // Its attributes.
                var count = 0
                var cutFrom: Int?
                var closed = false
                while j < n {
                    while j < n, isSpace(bytes[j]) || bytes[j] == UInt8(ascii: "/") { j += 1 }
                    guard j < n else { break }
                    if bytes[j] == UInt8(ascii: ">") { closed = true; break }
                    let attributeStart = j
                    j += 1  // a name's first character may be anything, `=` included
                    while j < n, !isSpace(bytes[j]), bytes[j] != UInt8(ascii: "/"), bytes[j] != UInt8(ascii: ">"), bytes[j] != UInt8(ascii: "=") { j += 1 }
                    var k = j
                    while k < n, isSpace(bytes[k]) { k += 1 }
                    if k < n, bytes[k] == UInt8(ascii: "=") {
                        k += 1
                        while k < n, isSpace(bytes[k]) { k += 1 }
                        if k < n, bytes[k] == UInt8(ascii: "\"") || bytes[k] == UInt8(ascii: "'") {
                            let quote = bytes[k]
                            k += 1
                            while k < n, bytes[k] != quote { k += 1 }
                            k = min(n, k + 1)
                        } else {
                            while k < n, !isSpace(bytes[k]), bytes[k] != UInt8(ascii: ">") { k += 1 }
                        }
                        j = k
                    }
                    count += 1
                    if count == maximumAttributes + 1 { cutFrom = attributeStart }
                }
                guard closed else { break }  // the page ends inside a tag
                if let cutFrom {
                    if output == nil { output = Data(capacity: n) }
                    output!.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copiedUpTo..<cutFrom]))
                    copiedUpTo = j  // from the tag's `>`
                }
                i = j + 1
                // Raw text: no tags inside until the element's end tag.
                if ["script", "style", "textarea", "title", "xmp", "noscript"].contains(where: { $0.utf8.elementsEqual(name) }) {
                    i = find(Array("</".utf8) + name, from: i, caseInsensitive: true) ?? n
                }
            }
            guard var output else { return nil }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copiedUpTo..<n]))
            return output
        }
    }
}
