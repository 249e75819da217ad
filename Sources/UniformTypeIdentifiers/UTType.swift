/// A uniform type identifier with the conformances Apple declares for the
/// common system types: a small stand-in for Apple's
/// `UniformTypeIdentifiers.UTType`, so that code written against it
/// compiles unchanged on Linux.
///
/// ```swift
/// import UniformTypeIdentifiers
/// let set = CSSearchableItemAttributeSet(contentType: .jpeg)
/// UTType.jpeg.conforms(to: .image)          // true
/// UTType("com.example.recipe")?.supertypes   // [public.item]
/// ```
///
/// An identifier it does not know conforms to `public.item` only.
public struct UTType: Hashable, Sendable, CustomStringConvertible {
    /// The identifier, such as `public.jpeg`.
    public let identifier: String

    /// The type with this identifier; nil for an empty or malformed one.
    public init?(_ identifier: String) {
        guard !identifier.isEmpty, identifier.utf8.count <= 255,
              !identifier.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 }) else { return nil }
        self.identifier = identifier
    }

    /// A type the app imports (declared by another app); same as ``init(_:)`` here.
    public init(importedAs identifier: String, conformingTo parent: UTType? = nil) {
        self.identifier = identifier
    }

    /// A type the app exports; same as ``init(_:)`` here.
    public init(exportedAs identifier: String, conformingTo parent: UTType? = nil) {
        self.identifier = identifier
    }

    public var description: String { identifier }

    /// Every type this one conforms to (not itself), nearest first.
    public var supertypes: Set<UTType> {
        Set(Self.conformanceTree(of: identifier).dropFirst().map { UTType(uncheckedIdentifier: $0) })
    }

    /// True when this type is `other` or conforms to it.
    public func conforms(to other: UTType) -> Bool {
        Self.conformanceTree(of: identifier).contains(other.identifier)
    }

    /// True when `other` conforms to this type.
    public func isSupertype(of other: UTType) -> Bool { other.conforms(to: self) }

    /// True when this type conforms to `other` and is not it.
    public func isSubtype(of other: UTType) -> Bool { self != other && conforms(to: other) }

    init(uncheckedIdentifier: String) { identifier = uncheckedIdentifier }

    /// This identifier first, then every identifier it conforms to, breadth first.
    ///
    /// ```swift
    /// UTType.conformanceTree(of: "public.jpeg")  // ["public.jpeg", "public.image", "public.data", "public.content", "public.item"]
    /// ```
    public static func conformanceTree(of identifier: String) -> [String] {
        var tree = [identifier]
        var index = 0
        while index < tree.count {
            let parents = tree[index] == "public.item" ? [] : (declaredSupertypes[tree[index]] ?? ["public.item"])
            for parent in parents where !tree.contains(parent) { tree.append(parent) }
            index += 1
        }
        return tree
    }

    /// Apple's declared direct conformances for the types apps index most.
    public static let declaredSupertypes: [String: [String]] = [
        "public.content": [],
        "public.data": ["public.item"],
        "public.text": ["public.data", "public.content"],
        "public.plain-text": ["public.text"],
        "public.utf8-plain-text": ["public.plain-text"],
        "net.daringfireball.markdown": ["public.plain-text"],
        "public.delimited-values-text": ["public.text"],
        "public.comma-separated-values-text": ["public.delimited-values-text"],
        "public.swift-source": ["public.source-code"],
        "com.apple.mail.email": ["public.email-message"],
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

extension UTType {
    public static let item = UTType(uncheckedIdentifier: "public.item")
    public static let content = UTType(uncheckedIdentifier: "public.content")
    public static let compositeContent = UTType(uncheckedIdentifier: "public.composite-content")
    public static let data = UTType(uncheckedIdentifier: "public.data")
    public static let text = UTType(uncheckedIdentifier: "public.text")
    public static let plainText = UTType(uncheckedIdentifier: "public.plain-text")
    public static let utf8PlainText = UTType(uncheckedIdentifier: "public.utf8-plain-text")
    public static let rtf = UTType(uncheckedIdentifier: "public.rtf")
    public static let html = UTType(uncheckedIdentifier: "public.html")
    public static let xml = UTType(uncheckedIdentifier: "public.xml")
    public static let json = UTType(uncheckedIdentifier: "public.json")
    public static let sourceCode = UTType(uncheckedIdentifier: "public.source-code")
    public static let pdf = UTType(uncheckedIdentifier: "com.adobe.pdf")
    public static let contact = UTType(uncheckedIdentifier: "public.contact")
    public static let vCard = UTType(uncheckedIdentifier: "public.vcard")
    public static let message = UTType(uncheckedIdentifier: "public.message")
    public static let emailMessage = UTType(uncheckedIdentifier: "public.email-message")
    public static let url = UTType(uncheckedIdentifier: "public.url")
    public static let fileURL = UTType(uncheckedIdentifier: "public.file-url")
    public static let image = UTType(uncheckedIdentifier: "public.image")
    public static let jpeg = UTType(uncheckedIdentifier: "public.jpeg")
    public static let png = UTType(uncheckedIdentifier: "public.png")
    public static let heic = UTType(uncheckedIdentifier: "public.heic")
    public static let tiff = UTType(uncheckedIdentifier: "public.tiff")
    public static let gif = UTType(uncheckedIdentifier: "com.compuserve.gif")
    public static let audiovisualContent = UTType(uncheckedIdentifier: "public.audiovisual-content")
    public static let movie = UTType(uncheckedIdentifier: "public.movie")
    public static let video = UTType(uncheckedIdentifier: "public.video")
    public static let mpeg4Movie = UTType(uncheckedIdentifier: "public.mpeg-4")
    public static let quickTimeMovie = UTType(uncheckedIdentifier: "com.apple.quicktime-movie")
    public static let audio = UTType(uncheckedIdentifier: "public.audio")
    public static let mp3 = UTType(uncheckedIdentifier: "public.mp3")
    public static let mpeg4Audio = UTType(uncheckedIdentifier: "public.mpeg-4-audio")
    public static let folder = UTType(uncheckedIdentifier: "public.folder")
    public static let directory = UTType(uncheckedIdentifier: "public.directory")
    public static let archive = UTType(uncheckedIdentifier: "public.archive")
    public static let zip = UTType(uncheckedIdentifier: "public.zip-archive")
    public static let presentation = UTType(uncheckedIdentifier: "public.presentation")
    public static let spreadsheet = UTType(uncheckedIdentifier: "public.spreadsheet")
    public static let bookmark = UTType(uncheckedIdentifier: "com.apple.bookmark")
    public static let application = UTType(uncheckedIdentifier: "com.apple.application")
}
