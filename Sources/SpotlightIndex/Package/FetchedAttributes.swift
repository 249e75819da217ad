/// The attributes a reader asks items for, matched as Core Spotlight
/// matches `fetchAttributes` (a name, or what comes before its first
/// dot), made once for the reads that use it: a system search makes a
/// row for each app's best items on every keystroke, and making the ~30
/// names' table for each read cost more than the attributes it passed over.
///
/// ```swift
/// static let shown = FetchedAttributes(["title", "contentDescription"])
/// let part = try store.systemSearchPart(terms, limit: 4, statistics: nil, fetching: Self.shown)
/// ```
package struct FetchedAttributes: Sendable {
    let names: AttributeCodec.FetchedNames

    package init(_ names: Set<String>) {
        self.names = AttributeCodec.FetchedNames(names)
    }
}
