public import Foundation

/// A parsed `robots.txt`: which URLs a crawler may fetch, as RFC 9309 and Apple's
/// Applebot rules say.
///
/// ```swift
/// let robots = RobotsTxt("""
///     User-agent: Googlebot
///     Disallow: /private/
///     Sitemap: https://example.com/sitemap.xml
///     """)
/// robots.isAllowed(URL(string: "https://example.com/private/a")!)   // false: Applebot follows Googlebot
/// robots.selectedGroup(userAgent: "Applebot")                       // "googlebot"
/// robots.sitemaps                                                   // [https://example.com/sitemap.xml]
/// ```
///
/// Group selection: for Applebot, the group naming `Applebot`, else the one naming
/// `Googlebot` (Apple: "If robots.txt doesn't mention Applebot but does mention
/// Googlebot, Applebot follows the Googlebot instructions"), else `*`. Any other
/// crawler gets its own product token's group, else `*`. `Applebot-Extended` is a
/// token of its own that only governs AI training; it never applies to `Applebot`.
/// Tokens compare case-insensitively and only the product token counts
/// (`User-agent: Applebot/0.1` names `applebot`). Groups that name the same agent
/// are merged; consecutive `User-agent` lines share one group.
///
/// Rules: the longest matching pattern (in octets) wins, `Allow` wins a tie, `*`
/// matches any run of characters, a final `$` anchors the end, an empty `Disallow`
/// allows everything, and `/robots.txt` itself is always allowed. Paths and patterns
/// are compared after the percent-encoding normalisation of RFC 9309 §2.2.2. Matching
/// is linear in the path and pattern, whatever the wildcards.
///
/// Parsing is lenient: invalid UTF-8, a byte-order mark, CR, LF or CRLF line ends,
/// `#` comments, a missing colon (`Disallow /x`) and Google's list of common key typos
/// (`useragent`, `dissallow`, …) are accepted; unknown lines and rules before the
/// first `User-agent` are ignored. Only the first ``maximumBytes`` are read (RFC 9309
/// asks for at least 500 KiB); a line cut by that limit is dropped rather than read
/// half-way. A pattern that does not start with `/` or `*` is read as if it did.
///
/// See [RFC 9309](https://www.rfc-editor.org/rfc/rfc9309) and Apple's
/// [About Applebot](https://support.apple.com/HT204683).
///
/// ## Topics
///
/// ### Reading a robots.txt
/// - ``init(_:)``
/// - ``init(data:)``
/// - ``forStatus(_:)``
/// - ``allowAll``
/// - ``disallowAll``
/// - ``unreachable``
///
/// ### Asking it
/// - ``isAllowed(_:userAgent:)``
/// - ``crawlDelay(userAgent:)``
/// - ``selectedGroup(userAgent:)``
/// - ``sitemaps``
public struct RobotsTxt: Sendable {
    /// How much of a robots.txt is read: 500 KiB, RFC 9309's minimum. The rest is ignored.
    public static let maximumBytes = 500 * 1024

    struct Rule: Sendable {
        let allow: Bool
        let pattern: RobotsPattern
    }

    struct Group: Sendable {
        /// Sorted so that the first match decides: longest pattern first, `Allow` first among equals.
        var rules: [Rule] = []
        var crawlDelay: Double?
    }

    /// The groups by lower-cased product token (`"*"` included), merged per token.
    private let groups: [String: Group]

    /// The `Sitemap:` URLs, in file order without repeats, from anywhere in the file
    /// (they belong to no group). Only absolute `http`/`https` URLs are kept.
    public let sitemaps: [URL]

    /// Parses robots.txt text.
    public init(_ text: String) {
        self.init(data: Data(text.utf8))
    }

    /// Parses a robots.txt body as fetched.
    public init(data: Data) {
        var bytes = [UInt8](data.prefix(Self.maximumBytes))
        if data.count > Self.maximumBytes {
            let next = data[data.startIndex + Self.maximumBytes]
            if next != 0x0A && next != 0x0D {
                bytes.removeSubrange((bytes.lastIndex { $0 == 0x0A || $0 == 0x0D } ?? 0)...)
            }
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }

        var parser = Parser()
        for line in bytes.split(omittingEmptySubsequences: true, whereSeparator: { $0 == 0x0A || $0 == 0x0D }) {
            parser.read(line)
        }
        parser.endGroup()
        groups = parser.groups.mapValues { group in
            var group = group
            group.rules.sort { a, b in
                a.pattern.length != b.pattern.length ? a.pattern.length > b.pattern.length : a.allow && !b.allow
            }
            return group
        }
        sitemaps = parser.sitemaps
    }

    /// An empty robots.txt: every URL is allowed.
    public static let allowAll = RobotsTxt("")

    /// `User-agent: *` / `Disallow: /`: nothing but `/robots.txt` is allowed.
    public static let disallowAll = RobotsTxt("User-agent: *\nDisallow: /")

    /// What to assume when robots.txt could not be fetched at all (DNS failure,
    /// refused connection, timeout): ``disallowAll``, as RFC 9309 §2.3.1.4 says.
    public static var unreachable: RobotsTxt { disallowAll }

    /// What a robots.txt fetch that ended with `statusCode` means, or `nil` when the
    /// body should be parsed (2xx).
    ///
    /// ```swift
    /// let robots = RobotsTxt.forStatus(response.statusCode) ?? RobotsTxt(data: body)
    /// ```
    ///
    /// - 2xx: `nil`, parse the body.
    /// - 3xx (redirects not followed or more than five of them) and 4xx ("unavailable"):
    ///   ``allowAll``.
    /// - 429 Too Many Requests: ``disallowAll`` (a request to slow down, treated like
    ///   a server error, as Google does).
    /// - 5xx ("unreachable"), 0 (no response) and anything else: ``disallowAll``.
    public static func forStatus(_ statusCode: Int) -> RobotsTxt? {
        switch statusCode {
        case 200..<300: nil
        case 429: disallowAll
        case 300..<500: allowAll
        default: disallowAll
        }
    }

    /// Whether `userAgent` may fetch `url`. Only the URL's path and query count.
    ///
    /// `userAgent` is a product token (`"Applebot"`, `"Applebot/0.1"`); a full
    /// browser-style header (`"Mozilla/5.0 … (Applebot/0.1; +http://www.apple.com/go/applebot)"`)
    /// that mentions `Applebot/` counts as Applebot.
    public func isAllowed(_ url: URL, userAgent: String = "Applebot") -> Bool {
        guard let key = selectedGroup(userAgent: userAgent), let group = groups[key] else { return true }
        let path = Self.normalizedPath(url)
        if path == Self.robotsPath { return true }
        let pathAndQuery = url.query(percentEncoded: true).map { path + [UInt8(ascii: "?")] + RobotsPattern.normalize($0.utf8) } ?? path
        for rule in group.rules where rule.pattern.matches(pathAndQuery) {
            return rule.allow
        }
        return true
    }

    /// The `Crawl-delay` of the group that applies to `userAgent`, in seconds (the
    /// first valid one if the group has several). Non-standard, and Apple documents
    /// nothing about it; a polite crawler may still honour it.
    public func crawlDelay(userAgent: String = "Applebot") -> Double? {
        selectedGroup(userAgent: userAgent).flatMap { groups[$0]?.crawlDelay }
    }

    /// The lower-cased user-agent token whose group applies to `userAgent`:
    /// `"applebot"`, `"googlebot"` (Applebot's fallback), the agent's own token, `"*"`,
    /// or `nil` when no group applies (everything is allowed).
    public func selectedGroup(userAgent: String) -> String? {
        let token = Self.productToken(ofUserAgent: userAgent)
        let candidates = token == "applebot" ? ["applebot", "googlebot", "*"] : [token, "*"]
        return candidates.first { groups[$0] != nil }
    }

    // MARK: - Internals

    private static let robotsPath = Array("/robots.txt".utf8)

    private static func normalizedPath(_ url: URL) -> [UInt8] {
        let path = url.path(percentEncoded: true)
        return RobotsPattern.normalize(path.isEmpty ? "/".utf8 : path.utf8)
    }

    private static func isTokenCharacter(_ character: Character) -> Bool {
        character == "-" || character == "_" || ("a"..."z").contains(character)
    }

    /// The product token a crawler calls itself by: the leading letters, `_` and `-`
    /// of `userAgent`, lower-cased; `applebot` for a browser-style header naming Applebot.
    static func productToken(ofUserAgent userAgent: String) -> String {
        let lower = userAgent.trimmingCharacters(in: .whitespaces).lowercased()
        let token = String(lower.prefix(while: isTokenCharacter))
        if token == "mozilla", let range = lower.range(of: "applebot/"),
           range.lowerBound == lower.startIndex || !isTokenCharacter(lower[lower.index(before: range.lowerBound)]) {
            return "applebot"
        }
        return token
    }

    /// Reads lines into groups. Not Sendable-relevant: lives only during `init(data:)`.
    private struct Parser {
        var groups: [String: Group] = [:]
        var sitemaps: [URL] = []
        /// The tokens of the group being read; `nil` before the first `User-agent` line.
        private var tokens: [String]?
        private var group = Group()
        /// The group being read has had a rule, so the next `User-agent` starts a new one.
        private var sawRule = false

        private enum Key {
            case userAgent, allow, disallow, crawlDelay, sitemap
        }

        private static let keys: [String: Key] = [
            "user-agent": .userAgent, "useragent": .userAgent, "user agent": .userAgent,
            "allow": .allow,
            "disallow": .disallow, "dissallow": .disallow, "dissalow": .disallow, "disalow": .disallow,
            "diasllow": .disallow, "disallaw": .disallow,
            "crawl-delay": .crawlDelay, "crawldelay": .crawlDelay, "crawl delay": .crawlDelay,
            "sitemap": .sitemap, "site-map": .sitemap,
        ]

        mutating func read(_ rawLine: ArraySlice<UInt8>) {
            guard let (keyText, value) = Self.split(rawLine), let key = Self.keys[keyText] else { return }
            switch key {
            case .userAgent:
                if sawRule { endGroup() }
                if tokens == nil { tokens = [] }
                if let token = Self.groupToken(value) { tokens?.append(token) }
            case .allow, .disallow:
                guard tokens != nil else { return }
                sawRule = true
                guard !value.isEmpty else { return }  // `Disallow:` alone allows everything
                var pattern = RobotsPattern.normalize(value)
                if pattern.first != UInt8(ascii: "/") && pattern.first != UInt8(ascii: "*") {
                    pattern.insert(UInt8(ascii: "/"), at: 0)
                }
                group.rules.append(Rule(allow: key == .allow, pattern: RobotsPattern(pattern)))
            case .crawlDelay:
                guard tokens != nil else { return }
                sawRule = true
                if group.crawlDelay == nil, let seconds = Double(String(decoding: value, as: UTF8.self)),
                   seconds.isFinite, seconds >= 0 {
                    group.crawlDelay = seconds
                }
            case .sitemap:
                let text = String(decoding: value, as: UTF8.self)
                if let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                   url.host(percentEncoded: true)?.isEmpty == false, !sitemaps.contains(url) {
                    sitemaps.append(url)
                }
            }
        }

        /// Files the group being read under each of its tokens, merging with earlier groups.
        mutating func endGroup() {
            for token in tokens ?? [] {
                groups[token, default: Group()].rules += group.rules
                if groups[token]?.crawlDelay == nil { groups[token]?.crawlDelay = group.crawlDelay }
            }
            tokens = []
            group = Group()
            sawRule = false
        }

        private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

        private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
            guard let start = bytes.firstIndex(where: { !isSpace($0) }), let end = bytes.lastIndex(where: { !isSpace($0) }) else {
                return []
            }
            return bytes[start...end]
        }

        /// `key: value` with the comment removed, the key lower-cased. Without a colon,
        /// whitespace separates key and value when there are exactly two words (as Google accepts).
        private static func split(_ rawLine: ArraySlice<UInt8>) -> (String, ArraySlice<UInt8>)? {
            let line = trimmed(rawLine.prefix { $0 != UInt8(ascii: "#") })
            guard !line.isEmpty else { return nil }
            let key: ArraySlice<UInt8>
            let value: ArraySlice<UInt8>
            if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
                key = trimmed(line[..<colon])
                value = trimmed(line[(colon + 1)...])
            } else {
                guard let space = line.firstIndex(where: isSpace) else { return nil }
                key = line[..<space]
                value = trimmed(line[space...])
                guard !value.contains(where: isSpace) else { return nil }
            }
            return (String(decoding: key, as: UTF8.self).lowercased(), value)
        }

        /// The product token a `User-agent` line names: `*`, or its leading letters, `_`
        /// and `-`, lower-cased (`Applebot/0.1` → `applebot`).
        private static func groupToken(_ value: ArraySlice<UInt8>) -> String? {
            if value.first == UInt8(ascii: "*") { return "*" }
            let token = value.prefix { byte in
                byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            }
            return token.isEmpty ? nil : String(decoding: token, as: UTF8.self).lowercased()
        }
    }
}
