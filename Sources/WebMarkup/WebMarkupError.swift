@_exported public import SpotlightErrors

/// Why WebMarkup could not read something: a stable ``WebMarkupErrorCode`` plus a message
/// that says what was wrong and what to do.
///
/// ```swift
/// do { _ = try HTMLDocument.parse(hugeData) }
/// catch let error as WebMarkupError where error.code == .pageTooLarge { … }
/// ```
///
/// The package's one error shape (``/SpotlightErrors/CodedError``) with WebMarkup's codes.
public typealias WebMarkupError = CodedError<WebMarkupErrorCode>

/// The kind of a ``WebMarkupError``; compare with `==`.
///
/// ```swift
/// if error.code == .invalidJSON { print("fix the association file:", error.message) }
/// ```
public struct WebMarkupErrorCode: ErrorCode {
    /// The code's name, as printed and encoded: `"invalidJSON"`.
    public let name: String
    /// The code with this name; WebMarkup throws the `static let`s below.
    public init(_ name: String) { self.name = name }

    /// A page, association file, robots.txt or sitemap over its size limit.
    public static let pageTooLarge = Self("pageTooLarge")
    /// JSON that does not parse, or whose root is not what the format needs.
    public static let invalidJSON = Self("invalidJSON")
    /// An XML document (a sitemap) that does not parse.
    public static let invalidXML = Self("invalidXML")
    /// A document that parses but breaks its format's rules.
    public static let invalidFormat = Self("invalidFormat")
    /// Compressed data that does not decompress.
    public static let invalidCompression = Self("invalidCompression")
}
