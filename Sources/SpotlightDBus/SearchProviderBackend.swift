/// What the GNOME Shell search provider asks of whoever searches: the service
/// implements it over its kept stores. Each call is made on the provider's
/// bus thread and should return quickly (open results off that thread).
///
/// ```swift
/// struct Backend: SearchProviderBackend {
///     func search(terms: [String]) -> [String] { ["com.example.notes/default/n1"] }
///     func metas(for identifiers: [String]) -> [SearchProviderResultMeta] { … }
///     func activate(identifier: String, terms: [String]) {}
///     func launchSearch(terms: [String]) {}
/// }
/// ```
public protocol SearchProviderBackend: Sendable {
    /// The identifiers of the results for what the user typed (GNOME splits it into terms).
    func search(terms: [String]) -> [String]
    /// Narrows a previous answer as the user types on; the default searches again.
    func subsearch(previous: [String], terms: [String]) -> [String]
    /// Name, description and icon of each result, in the order asked.
    func metas(for identifiers: [String]) -> [SearchProviderResultMeta]
    /// The user chose a result: open it in its app.
    func activate(identifier: String, terms: [String])
    /// The user asked for more: show the search page with the terms.
    func launchSearch(terms: [String])
}

extension SearchProviderBackend {
    public func subsearch(previous: [String], terms: [String]) -> [String] { search(terms: terms) }
}

/// One result as GNOME Shell shows it (`GetResultMetas`).
public struct SearchProviderResultMeta: Sendable, Hashable {
    public var identifier: String
    public var name: String
    public var description: String?
    /// A serialized `GIcon`: an icon name (`org.gnome.Maps`) or an absolute file path.
    public var icon: String?
    /// What "copy" puts on the clipboard, if anything.
    public var clipboardText: String?

    public init(identifier: String, name: String, description: String? = nil, icon: String? = nil, clipboardText: String? = nil) {
        self.identifier = identifier
        self.name = name
        self.description = description
        self.icon = icon
        self.clipboardText = clipboardText
    }
}
