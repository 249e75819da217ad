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
/// - `"\u{2}" + attribute`: the documents whose values of the attribute a
///   segment did not list, because the segment held more than
///   ``distinctLimit(documents:)`` different ones (a title, a version
///   number): the index cannot say which of those match, the caller
///   checks them.
///
/// So the documents of `attribute == "v"` (no modifier, no wildcard, `v`
/// ASCII of at most ``maxBytes``) are exactly those under the first name,
/// plus, when the second lists any, some of those. Merges carry both names
/// through as they carry every typed value.
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
    /// The first byte of an attribute's unlisted documents' name.
    static let uncheckedMarker: UInt8 = 0x02

    /// The reserved name listing the documents whose `attribute` holds
    /// `value`; nil when the value is not listed (no ASCII form, or longer
    /// than ``maxBytes``).
    package static func name(attribute: String, value: String) -> String? {
        guard let ascii = asciiForm(value) else { return nil }
        return "\u{1}" + attribute + "\u{0}" + ascii
    }

    /// The reserved name of the documents whose values of `attribute` a segment did not list.
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
    /// `documents` documents lists: past it, the attribute's documents are
    /// under its ``uncheckedName(attribute:)`` (for a title or a version,
    /// listing each value would cost more than it saves).
    package static func distinctLimit(documents: Int) -> Int { max(64, documents / 4) }

    /// The attribute of a listed value's name, nil for any other name.
    static func attribute(ofValueName name: String) -> Substring? {
        guard name.utf8.first == valueMarker, let end = name.utf8.firstIndex(of: 0) else { return nil }
        return name[name.utf8.index(after: name.utf8.startIndex)..<end]
    }

    /// Applies ``distinctLimit(documents:)`` to a segment's typed values
    /// before they are written: an attribute with more different listed
    /// values has its entries replaced by one per document under its
    /// unchecked name.
    static func limitDistinct(_ contents: inout SegmentContents) {
        var distinct: [Substring: Int] = [:]
        for name in contents.numberNames {
            if let attribute = attribute(ofValueName: name) { distinct[attribute, default: 0] += 1 }
        }
        let limit = distinctLimit(documents: contents.documentCount)
        let over = Set(distinct.filter { $0.value > limit }.keys)
        guard !over.isEmpty else { return }
        // Each over-limit value name's id → its attribute's unchecked name id.
        var replacement: [Int32: Int32] = [:]
        var unchecked: [Substring: Int32] = [:]
        for (id, name) in contents.numberNames.enumerated() {
            guard let attribute = attribute(ofValueName: name), over.contains(attribute) else { continue }
            if let existing = unchecked[attribute] {
                replacement[Int32(id)] = existing
            } else {
                let uncheckedName = uncheckedName(attribute: String(attribute))
                let newID = contents.numberNames.firstIndex(of: uncheckedName).map(Int32.init) ?? Int32(contents.numberNames.count)
                if Int(newID) == contents.numberNames.count { contents.numberNames.append(uncheckedName) }
                unchecked[attribute] = newID
                replacement[Int32(id)] = newID
            }
        }
        // One unchecked entry per document and attribute; names left without entries are dropped.
        var seen: Set<UInt64> = []
        var entries: [NumberEntry] = []
        entries.reserveCapacity(contents.numberEntries.count)
        for var entry in contents.numberEntries {
            if let target = replacement[entry.name] {
                guard seen.insert(UInt64(UInt32(bitPattern: target)) << 32 | UInt64(entry.doc)).inserted else { continue }
                entry.name = target
                entry.value = 0
            }
            entries.append(entry)
        }
        var used = [Bool](repeating: false, count: contents.numberNames.count)
        for entry in entries { used[Int(entry.name)] = true }
        var newIDs = [Int32](repeating: -1, count: contents.numberNames.count)
        var names: [String] = []
        for (id, name) in contents.numberNames.enumerated() where used[id] {
            newIDs[id] = Int32(names.count)
            names.append(name)
        }
        for index in entries.indices { entries[index].name = newIDs[Int(entries[index].name)] }
        contents.numberNames = names
        contents.numberEntries = entries
    }
}
