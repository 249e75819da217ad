/// A uniform type identifier and its place in the conformance tree.
///
/// ```swift
/// ContentType("public.contact").conformanceTree
/// // ["public.contact", "public.item"]
/// ContentType("public.jpeg").conforms(to: "public.image")   // true
/// ```
///
/// The tree follows Apple's system-declared types for the common types;
/// an unknown type conforms to `public.item` only.
/// See <https://developer.apple.com/documentation/uniformtypeidentifiers/system-declared_uniform_type_identifiers>.
public struct ContentType: Sendable, Hashable, CustomStringConvertible {
    /// The identifier, such as `public.plain-text`.
    public let identifier: String

    public init(_ identifier: String) { self.identifier = identifier }

    public var description: String { identifier }

    /// This type first, then every type it conforms to, breadth first, without repeats.
    public var conformanceTree: [String] {
        var tree = [identifier]
        var index = 0
        while index < tree.count {
            for parent in Self.parents(of: tree[index]) where !tree.contains(parent) {
                tree.append(parent)
            }
            index += 1
        }
        return tree
    }

    /// True when this type is `other` or conforms to it.
    public func conforms(to other: String) -> Bool {
        conformanceTree.contains(other)
    }

    static func parents(of identifier: String) -> [String] {
        if identifier == "public.item" { return [] }
        return supertypes[identifier] ?? ["public.item"]
    }

    /// Apple's declared conformances for the types apps index most.
    static let supertypes: [String: [String]] = [
        "public.content": [],
        "public.data": ["public.item"],
        "public.text": ["public.data", "public.content"],
        "public.plain-text": ["public.text"],
        "public.utf8-plain-text": ["public.plain-text"],
        "public.rtf": ["public.text"],
        "public.html": ["public.text"],
        "public.xml": ["public.text"],
        "public.json": ["public.text"],
        "public.source-code": ["public.plain-text"],
        "public.composite-content": ["public.content"],
        "com.adobe.pdf": ["public.data", "public.composite-content"],
        "public.contact": ["public.item"],
        "public.vcard": ["public.text", "public.contact"],
        "public.message": ["public.item"],
        "public.email-message": ["public.message"],
        "com.apple.mail.emlx": ["public.email-message", "public.data"],
        "public.calendar-event": ["public.item"],
        "public.to-do-item": ["public.item"],
        "public.url": ["public.data"],
        "public.file-url": ["public.url"],
        "public.image": ["public.data", "public.content"],
        "public.jpeg": ["public.image"],
        "public.png": ["public.image"],
        "public.heic": ["public.image"],
        "public.tiff": ["public.image"],
        "com.compuserve.gif": ["public.image"],
        "public.audiovisual-content": ["public.data", "public.content"],
        "public.movie": ["public.audiovisual-content"],
        "public.video": ["public.movie"],
        "public.mpeg-4": ["public.movie"],
        "com.apple.quicktime-movie": ["public.movie"],
        "public.audio": ["public.audiovisual-content"],
        "public.mp3": ["public.audio"],
        "public.mpeg-4-audio": ["public.audio"],
        "public.folder": ["public.directory"],
        "public.directory": ["public.item"],
        "public.archive": ["public.data"],
        "public.zip-archive": ["public.archive"],
        "public.location": ["public.item"],
        "public.presentation": ["public.composite-content"],
        "public.spreadsheet": ["public.content"],
        "com.apple.bookmark": ["public.item"],
        "com.apple.application": ["public.item"],
    ]
}
