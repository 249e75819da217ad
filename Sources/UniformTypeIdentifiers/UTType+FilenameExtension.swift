extension UTType {
    /// The filename extensions Apple declares for the common types here,
    /// the preferred one first.
    public static let declaredFilenameExtensions: [String: [String]] = [
        "public.plain-text": ["txt", "text"],
        "public.utf8-plain-text": [],
        "public.rtf": ["rtf"],
        "public.html": ["html", "htm"],
        "public.xml": ["xml"],
        "public.json": ["json"],
        "public.comma-separated-values-text": ["csv"],
        "net.daringfireball.markdown": ["md", "markdown"],
        "com.adobe.pdf": ["pdf"],
        "public.vcard": ["vcf", "vcard"],
        "com.apple.mail.email": ["eml"],
        "public.jpeg": ["jpeg", "jpg", "jpe"],
        "public.png": ["png"],
        "public.heic": ["heic"],
        "public.tiff": ["tiff", "tif"],
        "com.compuserve.gif": ["gif"],
        "public.mpeg-4": ["mp4"],
        "com.apple.quicktime-movie": ["mov", "qt"],
        "public.mp3": ["mp3"],
        "public.mpeg-4-audio": ["m4a"],
        "public.zip-archive": ["zip"],
        "public.swift-source": ["swift"],
    ]

    private static let typesByExtension: [String: String] = {
        var map: [String: String] = [:]
        for (identifier, extensions) in declaredFilenameExtensions {
            for ext in extensions where map[ext] == nil { map[ext] = identifier }
        }
        return map
    }()

    /// The type of files with this extension (any case, without the dot),
    /// if it conforms to `supertype`; nil for an extension not declared here.
    ///
    /// ```swift
    /// UTType(filenameExtension: "JPG")?.identifier   // "public.jpeg"
    /// UTType(filenameExtension: "txt", conformingTo: .image)  // nil
    /// ```
    public init?(filenameExtension: String, conformingTo supertype: UTType = .data) {
        guard let identifier = Self.typesByExtension[filenameExtension.lowercased()] else { return nil }
        let type = UTType(uncheckedIdentifier: identifier)
        guard type.conforms(to: supertype) else { return nil }
        self = type
    }

    /// The first extension declared for the type, if any.
    public var preferredFilenameExtension: String? { Self.declaredFilenameExtensions[identifier]?.first }

    /// Markdown text (`net.daringfireball.markdown`).
    public static let markdown = UTType(uncheckedIdentifier: "net.daringfireball.markdown")
    /// Comma-separated values.
    public static let commaSeparatedText = UTType(uncheckedIdentifier: "public.comma-separated-values-text")
    /// Swift source code.
    public static let swiftSource = UTType(uncheckedIdentifier: "public.swift-source")
}
