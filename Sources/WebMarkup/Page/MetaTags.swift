// The page's <meta> and <link> tags in document order: the raw material of
// PageMetadata (Open Graph, Twitter cards, App Links, the Smart App Banner,
// robots directives). Read once, then queried by key.

/// One `<meta>` tag: its key (`property`, else `name`, lower-cased) and content.
struct MetaTag: Sendable, Hashable {
    var key: String
    var content: String
    /// Whether the tag sits in `<head>` (the Smart App Banner counts only there).
    var inHead: Bool
}

/// The page's meta tags and `<link rel>` targets, in document order.
struct MetaTags: Sendable {
    var tags: [MetaTag] = []
    /// `(rel tokens lower-cased, href)` for every `<link>` with both.
    var links: [(rels: Set<String>, href: String)] = []
    /// The text of the first `<title>` (whitespace collapsed), if any.
    var title: String?

    init(_ document: HTMLDocument) {
        document.root.walk { element, ancestors in
            switch element.name {
            case "meta":
                guard let content = element.attribute("content") ?? element.attribute("value") else { break }
                let inHead = ancestors.contains("head")
                // Open Graph and App Links use property=, Twitter and robots name=; pages mix them up.
                for attribute in ["property", "name", "itemprop"] {
                    if let key = element.attribute(attribute), !key.isEmpty {
                        tags.append(MetaTag(key: key.markupTrimmed.lowercased(), content: content, inHead: inHead))
                        break
                    }
                }
            case "link":
                if let rel = element.attribute("rel"), let href = element.attribute("href") {
                    let rels = Set(rel.lowercased().split(whereSeparator: \.isWhitespace).map(String.init))
                    links.append((rels, href))
                }
            case "title" where title == nil && !ancestors.contains("svg"):
                title = element.textContent.markupCollapsed
            default:
                break
            }
            return true
        }
    }

    /// The first non-empty content for `key`.
    func first(_ key: String) -> String? {
        tags.first { $0.key == key && !$0.content.markupTrimmed.isEmpty }?.content.markupTrimmed
    }

    /// Every content for `key`, in order.
    func all(_ key: String) -> [String] {
        tags.filter { $0.key == key }.map(\.content)
    }
}

extension StringProtocol {
    /// Leading and trailing whitespace removed.
    var markupTrimmed: String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }

    /// Trimmed, with every run of whitespace made one space.
    var markupCollapsed: String {
        split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
