import Foundation

/// The exact-value index: which documents hold an attribute's short
/// string value, so that `section == "libs"` is answered from a segment
/// (as Tantivy answers a term of a raw field) instead of by reading every
/// item holding the word `libs` (`contrib/libs` too) and testing it.
///
/// It lives in the typed values (``SegmentFormat``'s `number…` sections)
/// under reserved names no attribute can have (attribute names are
/// letters, digits and `_`), each entry's value 0:
///
/// - `"\u{1}" + attribute + "\u{0}" + value`: the documents whose
///   attribute holds that value (a string, a string array's element or a
///   URL's text) when it is ASCII and at most ``maxBytes`` long
///   (``asciiForm(_:)``). A value with other characters never equals an
///   ASCII query value, and a longer one never equals a shorter one.
/// - `"\u{2}" + attribute`, one entry (document 0): the segment does not
///   list that attribute's values, because it held more than
///   ``distinctLimit(documents:)`` different ones (a title, a version
///   number, an e-mail address): listing each would cost more than it
///   saves. A query then finds the attribute's candidates as it did before
///   the index (its words), in that segment.
///
/// So in a segment without the second name, the documents of
/// `attribute == "v"` (no modifier, no wildcard, `v` ASCII of at most
/// ``maxBytes``) are exactly those under the first. Merges carry the
/// first names as every typed value, and the second once, whatever was
/// deleted: a merged segment lists an attribute only if all its inputs did.
///
/// ```swift
/// ExactValues.name(attribute: "section", value: "libs")   // "\u{1}section\u{0}libs"
/// ExactValues.asciiForm("café")                              // nil: never equal to an ASCII value
/// ```
package enum ExactValues {
    /// The longest value (in ASCII bytes) the index lists.
    package static let maxBytes = 64

    /// The first byte of a listed value's name.
    static let valueMarker: UInt8 = 0x01
    /// The first byte of the name marking an attribute a segment does not list.
    static let uncheckedMarker: UInt8 = 0x02

    /// The reserved name listing the documents whose `attribute` holds
    /// `value`; nil when the value is not listed (no ASCII form, or longer
    /// than ``maxBytes``).
    package static func name(attribute: String, value: String) -> String? {
        guard asciiForm(value) != nil else { return nil }
        // Written into the string's storage at once: appended piece by
        // piece it was ~1,600 instructions a value, three values an item.
        var attribute = attribute, value = value
        return attribute.withUTF8 { name in
            value.withUTF8 { text in
                String(unsafeUninitializedCapacity: 2 + name.count + text.count) { out in
                    out[0] = valueMarker
                    var at = 1
                    for byte in name { out[at] = byte; at += 1 }
                    out[at] = 0
                    at += 1
                    for byte in text { out[at] = byte; at += 1 }
                    return at
                }
            }
        }
    }

    /// The reserved name marking a segment that does not list `attribute`'s values.
    package static func uncheckedName(attribute: String) -> String { "\u{2}" + attribute }

    /// The value as the index lists it: itself when it is ASCII and at
    /// most ``maxBytes`` long, else nil. The query language's `==` without
    /// modifiers matches an ASCII value byte for byte, and never matches a
    /// character outside ASCII (U+212A KELVIN SIGN included) with an ASCII
    /// one: a value with any such character never equals an ASCII query
    /// value, and is not listed.
    package static func asciiForm(_ value: String) -> String? {
        let utf8 = value.utf8
        return utf8.count <= maxBytes && utf8.allSatisfy({ $0 < 0x80 }) ? value : nil
    }

    /// The most different values of one attribute a segment of
    /// `documents` documents lists: past it, the segment lists none and
    /// holds the attribute's ``uncheckedName(attribute:)`` (for a title or
    /// a version, listing each value would cost more than it saves).
    package static func distinctLimit(documents: Int) -> Int { max(64, documents / 4) }

    /// The attribute of a listed value's name, nil for any other name.
    static func attribute(ofValueName name: String) -> Substring? {
        guard name.utf8.first == valueMarker, let end = name.utf8.firstIndex(of: 0) else { return nil }
        return name[name.utf8.index(after: name.utf8.startIndex)..<end]
    }

    /// Whether `segment` lists `attribute`'s values (no ``uncheckedName(attribute:)`` entry).
    package static func lists(attribute: String, in segment: Segment) throws(SegmentError) -> Bool {
        try segment.numberValues(named: uncheckedName(attribute: attribute), in: .equal(0)).isEmpty
    }

    /// Whether a typed value name is an attribute's unlisted mark, which
    /// a merge keeps once whatever documents it drops.
    static func isUncheckedName(_ name: some Collection<UInt8>) -> Bool { name.first == uncheckedMarker }

    /// Whether a typed value name is one of the index's (no attribute's:
    /// attribute names are letters, digits and `_`).
    package static func isReservedName(_ name: some Collection<UInt8>) -> Bool {
        name.first == valueMarker || name.first == uncheckedMarker
    }

    /// Applies ``distinctLimit(documents:)`` to a segment's typed values
    /// before they are written: an attribute with more different listed
    /// values has them dropped, and one entry under its unchecked name.
    static func limitDistinct(_ contents: inout SegmentContents) {
        let attributes = contents.numberNames.map(attribute(ofValueName:))
        var distinct: [Substring: Int] = [:]
        for case let attribute? in attributes { distinct[attribute, default: 0] += 1 }
        let limit = distinctLimit(documents: contents.documentCount)
        let over = Set(distinct.filter { $0.value > limit }.keys)
        guard !over.isEmpty, contents.documentCount > 0 else { return }
        let dropped = attributes.map { $0.map(over.contains) ?? false }
        var names: [String] = []
        var newIDs = [Int32](repeating: -1, count: contents.numberNames.count)
        for (id, name) in contents.numberNames.enumerated() where !dropped[id] {
            newIDs[id] = Int32(names.count)
            names.append(name)
        }
        var entries: [NumberEntry] = []
        entries.reserveCapacity(contents.numberEntries.count)
        for entry in contents.numberEntries where !dropped[Int(entry.name)] {
            entries.append(NumberEntry(name: newIDs[Int(entry.name)], doc: entry.doc, value: entry.value))
        }
        for attribute in over.sorted() {
            let name = uncheckedName(attribute: String(attribute))
            let id = names.firstIndex(of: name).map(Int32.init) ?? Int32(names.count)
            if Int(id) == names.count { names.append(name) }
            if !entries.contains(where: { $0.name == id }) { entries.append(NumberEntry(name: id, doc: 0, value: 0)) }
        }
        contents.numberNames = names
        contents.numberEntries = entries
    }
}
