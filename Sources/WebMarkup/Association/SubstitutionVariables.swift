internal import Foundation

// Substitution variables: `$(name)` in an applinks pattern stands for any one of
// the variable's values. Custom variables come from `applinks.substitutionVariables`;
// the predefined ones are below. Predefined names win over a custom variable of
// the same name (the validator warns about the shadowing).
//
// Interface: `AssociationVariables(custom:)` then `piece(named:caseSensitive:)`
// gives the pattern piece for one reference.

/// The variables Apple predefines for every association file.
enum AssociationBuiltinVariable: String, CaseIterable, Sendable {
    case alpha, upper, lower, alnum, digit, xdigit, region, lang

    /// `$(region)`: Foundation's ISO region codes (`GB`, not `UK`).
    static let regionCodes: [String] = Locale.Region.isoRegions.map(\.identifier)
    /// `$(lang)`: Foundation's ISO language codes (`en`, `zh`, `ace`, …).
    static let languageCodes: [String] = Locale.LanguageCode.isoLanguageCodes.map(\.identifier)

    static let regionWords = AssociationWordSet(regionCodes, caseSensitive: true)
    static let foldedRegionWords = AssociationWordSet(regionCodes, caseSensitive: false)
    static let languageWords = AssociationWordSet(languageCodes, caseSensitive: true)
    static let foldedLanguageWords = AssociationWordSet(languageCodes, caseSensitive: false)

    /// The single-character class of the ASCII variables, nil for region and lang.
    var characterClass: AssociationCharacterClass? {
        switch self {
        case .alpha: AssociationCharacterClass("A"..."Z", "a"..."z")
        case .upper: AssociationCharacterClass("A"..."Z")
        case .lower: AssociationCharacterClass("a"..."z")
        case .alnum: AssociationCharacterClass("A"..."Z", "a"..."z", "0"..."9")
        case .digit: AssociationCharacterClass("0"..."9")
        case .xdigit: AssociationCharacterClass("0"..."9", "A"..."F", "a"..."f")
        case .region, .lang: nil
        }
    }

    /// Every value, as Apple lists them (one entry per alternative).
    var values: [String] {
        switch self {
        case .region: Self.regionCodes
        case .lang: Self.languageCodes
        default: characterClass!.members.map { String(Unicode.Scalar(UInt8($0))) }
        }
    }
}

/// A set of ASCII characters, tested in one step.
struct AssociationCharacterClass: Sendable, Hashable {
    private(set) var low: UInt64 = 0
    private(set) var high: UInt64 = 0

    init(_ ranges: ClosedRange<Unicode.Scalar>...) {
        for range in ranges {
            for value in range.lowerBound.value...range.upperBound.value { insert(value) }
        }
    }

    private init() {}

    mutating func insert(_ value: UInt32) {
        if value < 64 { low |= 1 << UInt64(value) } else if value < 128 { high |= 1 << UInt64(value - 64) }
    }

    func contains(_ value: UInt32) -> Bool {
        if value < 64 { return low & (1 << UInt64(value)) != 0 }
        if value < 128 { return high & (1 << UInt64(value - 64)) != 0 }
        return false
    }

    var members: [UInt32] { (0..<128).filter(contains) }

    /// The class as seen by case-folded input: each member replaced by its lower case.
    var folded: AssociationCharacterClass {
        var result = AssociationCharacterClass()
        for member in members { result.insert(AssociationCaseFolding.fold(member)) }
        return result
    }
}

/// Literal alternatives, grouped by length for a lookup at each position.
final class AssociationWordSet: Sendable {
    let words: [Int: Set<ArraySlice<UInt32>>]
    let lengths: [Int]

    init(_ values: some Sequence<String>, caseSensitive: Bool) {
        var words: [Int: Set<ArraySlice<UInt32>>] = [:]
        for value in values {
            let scalars = AssociationCaseFolding.scalars(of: value, caseSensitive: caseSensitive)
            words[scalars.count, default: []].insert(scalars[...])
        }
        self.words = words
        self.lengths = words.keys.sorted()
    }

    static let empty = AssociationWordSet([], caseSensitive: true)

    var isEmpty: Bool { lengths.isEmpty }
}

/// The `caseSensitive: false` folding: ASCII exactly, other characters by their
/// simple (one-to-one) lower-case mapping.
enum AssociationCaseFolding {
    static func fold(_ value: UInt32) -> UInt32 {
        if value < 128 {
            return value >= 0x41 && value <= 0x5A ? value + 0x20 : value
        }
        guard let scalar = Unicode.Scalar(value), scalar.properties.changesWhenLowercased else { return value }
        let mapping = scalar.properties.lowercaseMapping.unicodeScalars
        return mapping.count == 1 ? mapping.first!.value : value
    }

    static func scalars(of text: String, caseSensitive: Bool) -> [UInt32] {
        caseSensitive ? text.unicodeScalars.map(\.value) : text.unicodeScalars.map { fold($0.value) }
    }

    static func fold(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { result.append(Unicode.Scalar(fold(scalar.value)) ?? scalar) }
        return String(result)
    }
}

/// The variables one association file can use.
struct AssociationVariables: Sendable {
    /// `applinks.substitutionVariables`, name → values.
    var custom: [String: [String]]

    init(custom: [String: [String]] = [:]) {
        self.custom = custom
    }

    /// Whether `$(name)` refers to something (predefined or custom).
    func isDefined(_ name: String) -> Bool {
        AssociationBuiltinVariable(rawValue: name) != nil || custom[name] != nil
    }

    /// The pattern piece for `$(name)`. An undefined name never matches.
    func piece(named name: String, caseSensitive: Bool) -> AssociationPattern.Piece {
        if let builtin = AssociationBuiltinVariable(rawValue: name) {
            if let characterClass = builtin.characterClass {
                return .characterClass(caseSensitive ? characterClass : characterClass.folded)
            }
            let words: AssociationWordSet = switch (builtin, caseSensitive) {
            case (.region, true): AssociationBuiltinVariable.regionWords
            case (.region, false): AssociationBuiltinVariable.foldedRegionWords
            case (_, true): AssociationBuiltinVariable.languageWords
            case (_, false): AssociationBuiltinVariable.foldedLanguageWords
            }
            return .alternatives(words: words, patterns: [])
        }
        guard let values = custom[name] else { return .alternatives(words: .empty, patterns: []) }
        var literals: [String] = []
        var patterns: [[AssociationPattern.Piece]] = []
        for value in values {
            if value.unicodeScalars.contains(where: { $0 == "*" || $0 == "?" }) {
                patterns.append(AssociationPattern.pieces(of: value, caseSensitive: caseSensitive, variables: nil))
            } else {
                literals.append(value)
            }
        }
        return .alternatives(words: AssociationWordSet(literals, caseSensitive: caseSensitive), patterns: patterns)
    }
}
