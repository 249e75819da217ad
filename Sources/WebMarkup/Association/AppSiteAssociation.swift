import StrictJSON
public import Foundation

/// A parsed `apple-app-site-association` file: which apps a domain vouches for,
/// and which of its URLs open which app (universal links).
///
/// Reads every format Apple has shipped: the iOS 9–12 `paths` form (with `NOT `
/// exclusions), the oldest `details` dictionary keyed by app ID, the iOS 13+
/// `components` form with `defaults`, `substitutionVariables`, `caseSensitive` and
/// `percentEncoded`, and the iOS 8 CMS-signed wrapper (whose signature is not verified).
///
/// ```swift
/// let association = try AppSiteAssociation(json: """
///     { "applinks": { "details": [ { "appIDs": ["ABCDE12345.com.example.app"],
///         "components": [ { "/": "/help/website/*", "exclude": true }, { "/": "/help/*" } ] } ] } }
///     """)
/// association.match(URL(string: "https://example.com/help/faq")!,
///                   applicationIdentifier: "ABCDE12345.com.example.app")    // .match
/// association.handler(for: URL(string: "https://example.com/help/website/x")!)  // nil (blocked)
/// ```
///
/// Parts of the file with the wrong type (a `details` that is not an array, an
/// `exclude` that is not `true`/`false`, …) are ignored as if absent; run
/// ``AssociationValidator`` to have them reported.
///
/// See Apple's [applinks](https://developer.apple.com/documentation/bundleresources/applinks)
/// reference and [Supporting associated domains](https://developer.apple.com/documentation/xcode/supporting-associated-domains).
///
/// ## Topics
/// - ``match(_:applicationIdentifier:)``
/// - ``handler(for:)``
/// - ``Detail``
/// - ``Component``
/// - ``AssociationValidator``
public struct AppSiteAssociation: Sendable {
    /// Where the file is served today: `https://<domain>/.well-known/apple-app-site-association`.
    public static let wellKnownPath = "/.well-known/apple-app-site-association"
    /// The root location iOS 9–12 also tried (deprecated since WWDC19).
    public static let legacyPath = "/apple-app-site-association"
    /// Apple's size limit, 128 KB, signed or not.
    public static let maximumByteCount = 128 * 1024

    /// Whether the file came wrapped in CMS SignedData. The signature was **not** verified.
    public let isSigned: Bool
    /// Whether the file has an `applinks` dictionary at all.
    public let hasAppLinks: Bool
    /// `applinks.defaults`: settings for every component of the domain.
    public let defaults: Component?
    /// `applinks.substitutionVariables`, name → values (entries of the wrong type left out).
    public let substitutionVariables: [String: [String]]
    /// `applinks.details` in evaluation order (the legacy dictionary form sorted by app ID).
    public let details: [Detail]
    /// `webcredentials.apps` (password AutoFill and Shared Web Credentials).
    public let webCredentialsApps: [String]
    /// `activitycontinuation.apps` (Handoff).
    public let activityContinuationApps: [String]
    /// `appclips.apps` (App Clip invocations from the domain).
    public let appClipApps: [String]

    /// The compiled rules, one list per entry of ``details``.
    let compiledDetails: [AssociationCompiledDetail]

    /// Parses an association file as served: JSON, or JSON wrapped in CMS SignedData.
    ///
    /// - Throws: ``WebMarkupError`` — ``WebMarkupErrorCode/pageTooLarge`` over 128 KB,
    ///   ``WebMarkupErrorCode/invalidJSON`` for text that is not UTF-8 JSON with a
    ///   dictionary at the root, ``WebMarkupErrorCode/invalidFormat`` for a broken
    ///   signed wrapper. The message says what is wrong and where.
    public init(data: Data) throws {
        var diagnostics = AssociationDiagnostics()
        let (root, isSigned) = try Self.readRoot(data)
        self.init(root: root, isSigned: isSigned, diagnostics: &diagnostics)
    }

    /// Parses the JSON text of an association file.
    ///
    /// - Throws: ``WebMarkupError`` as ``init(data:)`` does.
    public init(json: String) throws {
        try self.init(data: Data(json.utf8))
    }

    /// Every app ID in `applinks`, in evaluation order, each once.
    public var applicationIdentifiers: [String] {
        var seen = Set<String>()
        return details.flatMap(\.applicationIdentifiers).filter { seen.insert($0).inserted }
    }

    /// The size check, the signed wrapper, UTF-8 and JSON: everything before the structure.
    static func readRoot(_ data: Data) throws(WebMarkupError) -> (OrderedJSON.Object, isSigned: Bool) {
        guard data.count <= maximumByteCount else {
            throw WebMarkupError(.pageTooLarge, "The association file is \(data.count) bytes; Apple reads at most \(maximumByteCount) bytes (128 KB).")
        }
        let isSigned = SignedAssociation.isSignedData(data)
        let bytes = [UInt8](isSigned ? try SignedAssociation.content(of: data) : data)
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw WebMarkupError(.invalidJSON, "The association file is not valid UTF-8 text.")
        }
        let value: OrderedJSON
        do {
            value = try AssociationJSON.parse(bytes)
        } catch {
            throw WebMarkupError(.invalidJSON, "The association file is not valid JSON: \(error.message).")
        }
        guard let root = value.objectValue else {
            throw WebMarkupError(.invalidJSON, "The association file's top level is \(value.kindDescription); it must be a dictionary.")
        }
        return (root, isSigned)
    }
}

extension AppSiteAssociation {
    /// One entry of `applinks.details`: the apps it names and the rules for them.
    ///
    /// ```swift
    /// let entry = association.details[0]
    /// entry.applicationIdentifiers   // ["ABCDE12345.com.example.app"]
    /// entry.components?.count        // nil for a legacy `paths` entry
    /// ```
    ///
    /// When ``components`` is present, ``paths`` is ignored (as on iOS 13+).
    public struct Detail: Sendable, Hashable {
        /// The entry's `appID` and `appIDs` (and, in the legacy dictionary form, its key), in file order, each once.
        public let applicationIdentifiers: [String]
        /// `defaults`: settings for every component of this entry.
        public let defaults: Component?
        /// `components` (iOS 13+), in order; nil when absent.
        public let components: [Component]?
        /// `paths` (iOS 9–12), in order, `NOT ` prefixes included; nil when absent.
        public let paths: [String]?
        /// Where the entry is, e.g. `applinks.details[1]`.
        let keyPath: String
    }

    /// One rule of `components` (or a `defaults` dictionary, which has the same keys).
    ///
    /// ```swift
    /// let rule = association.details[0].components![0]
    /// rule.path      // "/help/website/*"
    /// rule.exclude   // true
    /// ```
    ///
    /// Nil means the key is absent (or had the wrong type): the value comes from the
    /// `defaults` above it, and finally from Apple's defaults (`*` for patterns,
    /// `exclude` false, `caseSensitive` and `percentEncoded` true).
    public struct Component: Sendable, Hashable {
        /// `/`: the path pattern.
        public let path: String?
        /// `?`: the query pattern or per-item patterns.
        public let query: Query?
        /// `#`: the fragment pattern.
        public let fragment: String?
        /// `exclude`: a match blocks the URL instead of opening the app.
        public let exclude: Bool?
        /// `caseSensitive` (iOS 13.5+).
        public let caseSensitive: Bool?
        /// `percentEncoded` (iOS 14+).
        public let percentEncoded: Bool?
        /// `comment`, which the system ignores.
        public let comment: String?
        /// Where the dictionary is, e.g. `applinks.details[0].components[2]`.
        let keyPath: String

        /// The settings of `self`, with absent keys taken from `parent`.
        func inheriting(from parent: Component?) -> Component {
            guard let parent else { return self }
            return Component(
                path: path ?? parent.path, query: query ?? parent.query, fragment: fragment ?? parent.fragment,
                exclude: exclude ?? parent.exclude, caseSensitive: caseSensitive ?? parent.caseSensitive,
                percentEncoded: percentEncoded ?? parent.percentEncoded, comment: comment, keyPath: keyPath)
        }
    }

    /// The `?` key of a component.
    ///
    /// ```swift
    /// // "?": "a=1"                     → .pattern("a=1"): the whole query must match
    /// // "?": { "articleNumber": "????" } → .items(["articleNumber": "????"])
    /// ```
    ///
    /// In the dictionary form only the named items are constrained; an absent or
    /// valueless item counts as the empty string, and every occurrence of a repeated
    /// name must match. A dictionary with any non-string value is ignored entirely,
    /// as Apple does (the validator reports it as `aasa_non_string_query`).
    public enum Query: Sendable, Hashable {
        /// A pattern for the entire query string (without the `?`).
        case pattern(String)
        /// Query item name → value pattern.
        case items([String: String])
    }
}
