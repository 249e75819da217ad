/// The kind of a ``CodedError``: a name, with the kinds a module knows as `static let`s.
///
/// Each module's code is a small struct wrapping the code's name. Codes compare, hash, print
/// and encode as that name, so a module can add a code without breaking anyone's `switch`
/// (there is no exhaustive one to break), and JSON that carried an enum's raw value reads the same.
///
/// ```swift
/// public struct ParseErrorCode: ErrorCode {
///     public let name: String
///     public init(_ name: String) { self.name = name }
///
///     /// The input ended in the middle of a value.
///     public static let truncated = Self("truncated")
/// }
///
/// ParseErrorCode.truncated.description                     // "truncated"
/// try JSONEncoder().encode([ParseErrorCode.truncated])     // ["truncated"]
/// try JSONDecoder().decode(ParseErrorCode.self, from: #""truncated""#.data(using: .utf8)!) == .truncated  // true
/// ```
///
/// A name the type does not list (sent by a newer peer) decodes as itself rather than failing;
/// compare it with the known codes, or print it.
public protocol ErrorCode: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The code's name, as it is printed and encoded: `"itemNotFound"`.
    ///
    /// ```swift
    /// SpotlightIndexErrorCode.itemNotFound.name  // "itemNotFound"
    /// ```
    var name: String { get }

    /// The code with this name; the module's `static let`s are the codes it throws.
    ///
    /// ```swift
    /// public static let itemNotFound = Self("itemNotFound")
    /// ```
    init(_ name: String)
}

extension ErrorCode {
    /// The code's ``name``.
    ///
    /// ```swift
    /// print(error.code)  // itemNotFound
    /// ```
    public var description: String { name }

    /// Reads a code from its name, a single string.
    ///
    /// ```swift
    /// let code = try JSONDecoder().decode(ParseErrorCode.self, from: Data(#""truncated""#.utf8))
    /// ```
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    /// Writes the code as its name, a single string.
    ///
    /// ```swift
    /// let json = try JSONEncoder().encode(ParseErrorCode.truncated)  // "truncated"
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
