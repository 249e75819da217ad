public import Foundation

/// What the crawler saw when it fetched an association file, for
/// ``AssociationValidator/validate(data:fetch:sampleURLs:)``.
///
/// ```swift
/// let fetch = AssociationFetch(statusCode: 200, contentType: "application/json",
///                              redirects: [], finalURL: fileURL, byteCount: body.count)
/// ```
///
/// Apple fetches the file over HTTPS without following redirects, so any entry in
/// ``redirects`` is a failure. See Apple's
/// [Supporting associated domains](https://developer.apple.com/documentation/xcode/supporting-associated-domains).
public struct AssociationFetch: Sendable, Hashable {
    /// The final HTTP status code (200 is the only good one).
    public var statusCode: Int
    /// The `Content-Type` header as sent, parameters included; nil when absent.
    public var contentType: String?
    /// Every URL the crawler was redirected to, in order; empty when there were none.
    public var redirects: [URL]
    /// The URL the body finally came from.
    public var finalURL: URL?
    /// The size of the body in bytes, as received.
    public var byteCount: Int

    public init(statusCode: Int, contentType: String?, redirects: [URL] = [], finalURL: URL? = nil, byteCount: Int) {
        self.statusCode = statusCode
        self.contentType = contentType
        self.redirects = redirects
        self.finalURL = finalURL
        self.byteCount = byteCount
    }
}
