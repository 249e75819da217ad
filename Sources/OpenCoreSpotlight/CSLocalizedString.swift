public import Foundation

/// A string with a variant per language, as Apple's `CSLocalizedString`:
/// it reads as the variant that best matches the user's preferred
/// languages, wherever a string is expected.
///
/// ```swift
/// let title = CSLocalizedString(localizedStrings: ["en": "Apple pie", "fr": "Tarte aux pommes"])
/// attributes.title = title.localizedString()   // "Tarte aux pommes" for a French user
/// ```
///
/// The best match for a preferred language such as `fr-CA` is the exact
/// key, then a key of the same language (`fr`, `fr-FR`), then the next
/// preferred language; failing all, English, then the first key in
/// alphabetical order. Keys are locale identifiers (`-` or `_`, any case).
open class CSLocalizedString: NSString {
    /// The variants by locale identifier, as given (string values only).
    public let localizedStrings: [String: String]
    private let resolved: [unichar]

    /// A string from its variants; non-string keys and values are ignored.
    public init(localizedStrings: [AnyHashable: Any]) {
        var strings: [String: String] = [:]
        for (key, value) in localizedStrings {
            if let key = key.base as? String, let value = value as? String { strings[key] = value }
        }
        let units = Array(Self.bestMatch(strings, preferredLanguages: Locale.preferredLanguages).utf16)
        self.localizedStrings = strings
        self.resolved = units
        super.init(characters: units, length: units.count)
    }

    public required init?(coder: NSCoder) { nil }

    public required convenience init(string aString: String) {
        self.init(localizedStrings: ["": aString])
    }

    public required convenience init(stringLiteral value: StaticString) {
        self.init(string: value.description)
    }

    public required convenience init(extendedGraphemeClusterLiteral value: StaticString) {
        self.init(string: value.description)
    }

    public required convenience init(unicodeScalarLiteral value: StaticString) {
        self.init(string: value.description)
    }

    /// The variant for the user's preferred languages.
    open func localizedString() -> String {
        String(decoding: resolved, as: UTF16.self)
    }

    open override var length: Int { resolved.count }

    open override func character(at index: Int) -> unichar { resolved[index] }

    open override var description: String { localizedString() }

    /// The variant that best matches `preferredLanguages`, most preferred first.
    static func bestMatch(_ strings: [String: String], preferredLanguages: [String]) -> String {
        func normalized(_ identifier: String) -> String { identifier.replacingOccurrences(of: "_", with: "-").lowercased() }
        func language(_ identifier: String) -> Substring { normalized(identifier).split(separator: "-").first ?? "" }
        let keys = strings.keys.sorted()
        for preferred in preferredLanguages + ["en"] {
            if let key = keys.first(where: { normalized($0) == normalized(preferred) }) { return strings[key]! }
            if let key = keys.first(where: { !language($0).isEmpty && language($0) == language(preferred) }) { return strings[key]! }
        }
        return keys.first.flatMap { strings[$0] } ?? ""
    }
}
