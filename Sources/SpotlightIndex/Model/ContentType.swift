import UniformTypeIdentifiers

/// A uniform type identifier and its place in the conformance tree.
///
/// ```swift
/// ContentType("public.contact").conformanceTree
/// // ["public.contact", "public.item"]
/// ContentType("public.jpeg").conforms(to: "public.image")   // true
/// ```
///
/// The tree is `UTType`'s: Apple's system-declared types for the common ones;
/// an unknown type conforms to `public.item` only.
/// See <https://developer.apple.com/documentation/uniformtypeidentifiers/system-declared_uniform_type_identifiers>.
public struct ContentType: Sendable, Hashable, CustomStringConvertible {
    /// The identifier, such as `public.plain-text`.
    public let identifier: String

    public init(_ identifier: String) { self.identifier = identifier }

    public var description: String { identifier }

    /// This type first, then every type it conforms to, breadth first, without repeats.
    public var conformanceTree: [String] { UTType.conformanceTree(of: identifier) }

    /// True when this type is `other` or conforms to it.
    public func conforms(to other: String) -> Bool {
        conformanceTree.contains(other)
    }
}
