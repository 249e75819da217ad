/// What the page's robots meta tags say (`<meta name="robots" content="noindex, nofollow">`).
///
/// Names and values are read in any case; a tag may list several directives
/// separated by commas; several tags combine; `none` is noindex + nofollow + nosnippet.
/// Only `name="robots"` counts: Apple documents no Applebot-specific name.
///
/// ```swift
/// RobotsDirectives(contents: ["NOINDEX", "nofollow"]).noindex // true
/// ```
public struct RobotsDirectives: Sendable, Hashable, Codable {
    public var noindex = false
    public var nofollow = false
    public var nosnippet = false

    public init(noindex: Bool = false, nofollow: Bool = false, nosnippet: Bool = false) {
        self.noindex = noindex
        self.nofollow = nofollow
        self.nosnippet = nosnippet
    }

    /// Combines the content of every robots meta tag.
    public init(contents: [String]) {
        for content in contents {
            for directive in content.lowercased().split(whereSeparator: { $0 == "," || $0 == ";" }) {
                // `max-snippet:0` is the modern spelling of nosnippet.
                switch directive.markupTrimmed {
                case "noindex": noindex = true
                case "nofollow": nofollow = true
                case "nosnippet", "max-snippet:0": nosnippet = true
                case "none":
                    noindex = true
                    nofollow = true
                    nosnippet = true
                default: break  // all, index, follow, and directives Applebot does not read
                }
            }
        }
    }
}
