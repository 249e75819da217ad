/// Why WebMarkup could not read something: a stable ``Code`` plus a message
/// that says what was wrong and what to do.
///
/// ```swift
/// do { _ = try HTMLDocument.parse(hugeData) }
/// catch let error as WebMarkupError where error.code == .pageTooLarge { … }
/// ```
public struct WebMarkupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure; compare with `==`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// A page, association file, robots.txt or sitemap over its size limit.
        public static let pageTooLarge = Code("pageTooLarge")
        /// JSON that does not parse, or whose root is not what the format needs.
        public static let invalidJSON = Code("invalidJSON")
        /// An XML document (a sitemap) that does not parse.
        public static let invalidXML = Code("invalidXML")
        /// A document that parses but breaks its format's rules.
        public static let invalidFormat = Code("invalidFormat")
        /// Compressed data that does not decompress.
        public static let invalidCompression = Code("invalidCompression")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
