import Foundation

/// An app's icon, when its registration names an image file the service may
/// serve to the page (an absolute path to a PNG, JPEG or SVG of at most 1 MiB).
/// Icon names (`org.gnome.Maps`) are for the desktop: the page shows the app's initial.
enum AppIcon {
    static let maximumBytes = 1 << 20

    /// The file and its media type, or nil when the icon is not a servable image file.
    static func servableFile(_ icon: String?) -> (path: String, mediaType: String)? {
        guard let icon, icon.hasPrefix("/") else { return nil }
        let types = ["png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "svg": "image/svg+xml"]
        guard let type = types[(icon as NSString).pathExtension.lowercased()] else { return nil }
        return (icon, type)
    }

    /// The media type of image bytes (PNG, JPEG, GIF, WebP, SVG), or nil for anything else.
    static func sniff(_ data: Data) -> String? {
        let bytes = [UInt8](data.prefix(16))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return "image/webp" }
        let head = String(decoding: data.prefix(512), as: UTF8.self).lowercased()
        if head.contains("<svg") { return "image/svg+xml" }
        return nil
    }
}
