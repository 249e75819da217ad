public import Foundation

extension HTMLDocument {
    /// The first `<base href>` of `root` resolved against `url`, else `url`.
    static func base(of root: HTMLElement, url: URL?) -> URL? {
        let base = root.all(named: "base").lazy.compactMap { $0.attribute("href") }.first
        guard let base else { return url }
        return resolve(base, against: url) ?? url
    }

    /// Resolves a URL written in the page (trimmed of ASCII whitespace, as browsers do)
    /// against ``baseURL``. `nil` for an empty or unparsable reference.
    ///
    /// ```swift
    /// let page = try HTMLDocument.parse(#"<base href="/shop/"><a href="pear">"#, url: URL(string: "https://example.com/a/b")!)
    /// page.resolve("pear")?.absoluteString // "https://example.com/shop/pear"
    /// ```
    public func resolve(_ reference: String) -> URL? {
        Self.resolve(reference, against: baseURL)
    }

    static func resolve(_ reference: String, against base: URL?) -> URL? {
        let trimmed = reference.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        if let absolute = URL(string: trimmed), absolute.scheme != nil { return absolute }
        if let base, let relative = URL(string: trimmed, relativeTo: base) { return relative.absoluteURL }
        let encoded = trimmed.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed.union(["#", "%"]))
        if let encoded, let relative = URL(string: encoded, relativeTo: base) { return relative.absoluteURL }
        return nil
    }
}
