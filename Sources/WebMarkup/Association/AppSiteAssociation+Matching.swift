public import Foundation

// Universal-link matching: which app, if any, opens a URL.
//
//   for each entry of applinks.details naming the app (array order):
//       effective settings = built-ins ← applinks.defaults ← entry.defaults ← component
//       components present: the first component whose `/`, `?` and `#` all match decides
//       otherwise legacy paths: the first path (after `NOT `) matching the URL path decides
//       a deciding rule with exclude / `NOT ` gives .block, else .match (the scan stops)
//   no deciding rule in any entry: .none
//
// Patterns are compiled once, at parse time, by `AssociationCompiler`. URL parts
// are prepared lazily per (percentEncoded, caseSensitive) variant by
// `AssociationMatchContext`, so a URL is decoded and folded at most once per variant.

extension AppSiteAssociation {
    /// What the file says about `url` for one app: the first rule that matches
    /// decides, and an exclusion stops the scan (`.block`) rather than skipping on.
    ///
    /// ```swift
    /// association.match(URL(string: "https://example.com/buy/42")!,
    ///                   applicationIdentifier: "ABCDE12345.com.example.app")   // .match
    /// ```
    ///
    /// Only the path, query and fragment are compared; the scheme and host are the
    /// caller's business (the file applies to the domain it was fetched from).
    public func match(_ url: URL, applicationIdentifier: String) -> AssociationMatch {
        var context = AssociationMatchContext(url)
        return decide(&context, applicationIdentifier: applicationIdentifier).result
    }

    /// The app that opens `url`: the first app ID, in `details` order and then in
    /// each entry's `appID`/`appIDs` order, whose result is ``AssociationMatch/match``.
    ///
    /// ```swift
    /// association.handler(for: URL(string: "https://example.com/buy/42")!)  // "ABCDE12345.com.example.app"
    /// ```
    public func handler(for url: URL) -> String? {
        var context = AssociationMatchContext(url)
        var tried = Set<String>()
        for detail in compiledDetails {
            for identifier in detail.applicationIdentifiers where tried.insert(identifier).inserted {
                if decide(&context, applicationIdentifier: identifier).result == .match { return identifier }
            }
        }
        return nil
    }

    /// The result and the key path of the deciding rule (nil for `.none`).
    func decide(_ context: inout AssociationMatchContext, applicationIdentifier: String) -> (result: AssociationMatch, rule: String?) {
        for detail in compiledDetails where detail.applicationIdentifiers.contains(applicationIdentifier) {
            for rule in detail.rules where rule.matches(&context) {
                return (rule.exclude ? .block : .match, rule.keyPath)
            }
        }
        return (.none, nil)
    }
}

/// One entry of `details`, compiled.
struct AssociationCompiledDetail: Sendable {
    let applicationIdentifiers: [String]
    let rules: [AssociationRule]
}

/// One component (or legacy path) with its effective settings, compiled.
struct AssociationRule: Sendable {
    struct QueryItem: Sendable {
        /// Folded when the rule is case-insensitive.
        let name: String
        let pattern: AssociationPattern
    }

    enum QueryMatcher: Sendable {
        case any
        case whole(AssociationPattern)
        case items([QueryItem])
    }

    /// nil: any path.
    let path: AssociationPattern?
    let query: QueryMatcher
    /// nil: any fragment.
    let fragment: AssociationPattern?
    let exclude: Bool
    let caseSensitive: Bool
    let percentEncoded: Bool
    /// Where the rule is written, for messages.
    let keyPath: String

    func matches(_ context: inout AssociationMatchContext) -> Bool {
        if let path, !path.matches(context.path(percentEncoded: percentEncoded, caseSensitive: caseSensitive)) {
            return false
        }
        switch query {
        case .any:
            break
        case .whole(let pattern):
            guard pattern.matches(context.query(percentEncoded: percentEncoded, caseSensitive: caseSensitive)) else { return false }
        case .items(let items):
            let values = context.queryItems(percentEncoded: percentEncoded, caseSensitive: caseSensitive)
            for item in items {
                // An absent item counts as one empty value; every occurrence must match.
                let occurrences = values[item.name] ?? [AssociationSubject("", caseSensitive: true)]
                guard occurrences.allSatisfy(item.pattern.matches) else { return false }
            }
        }
        if let fragment, !fragment.matches(context.fragment(percentEncoded: percentEncoded, caseSensitive: caseSensitive)) {
            return false
        }
        return true
    }
}

/// Turns the parsed entries into rules, applying the defaults hierarchy.
struct AssociationCompiler {
    let defaults: AppSiteAssociation.Component?
    let variables: AssociationVariables

    init(defaults: AppSiteAssociation.Component?, variables: [String: [String]]) {
        self.defaults = defaults
        self.variables = AssociationVariables(custom: variables)
    }

    private struct CacheKey: Hashable {
        var text: String
        var caseSensitive: Bool
        var isPath: Bool
        var usesVariables: Bool
    }

    func compile(_ details: [AppSiteAssociation.Detail]) -> [AssociationCompiledDetail] {
        var cache: [CacheKey: AssociationPattern] = [:]
        func pattern(_ text: String, caseSensitive: Bool, isPath: Bool, usesVariables: Bool = true) -> AssociationPattern? {
            let key = CacheKey(text: text, caseSensitive: caseSensitive, isPath: isPath, usesVariables: usesVariables)
            if let cached = cache[key] { return cached }
            let compiled = AssociationPattern(text, caseSensitive: caseSensitive, variables: usesVariables ? variables : nil, isPath: isPath)
            cache[key] = compiled
            return compiled
        }

        return details.map { detail in
            var rules: [AssociationRule] = []
            if let components = detail.components {
                for component in components {
                    let effective = effectiveComponent(component, in: detail)
                    let caseSensitive = effective.caseSensitive ?? true
                    let query: AssociationRule.QueryMatcher = switch effective.query {
                    case nil, .pattern("*"): .any
                    case .pattern(let text): .whole(pattern(text, caseSensitive: caseSensitive, isPath: false)!)
                    case .items(let items):
                        .items(items.keys.sorted().map { name in
                            AssociationRule.QueryItem(
                                name: caseSensitive ? name : AssociationCaseFolding.fold(name),
                                pattern: pattern(items[name]!, caseSensitive: caseSensitive, isPath: false)!)
                        })
                    }
                    rules.append(AssociationRule(
                        path: effective.path.flatMap { Self.isAnything($0, isPath: true) ? nil : pattern($0, caseSensitive: caseSensitive, isPath: true) },
                        query: query,
                        fragment: effective.fragment.flatMap { Self.isAnything($0, isPath: false) ? nil : pattern($0, caseSensitive: caseSensitive, isPath: false) },
                        exclude: effective.exclude ?? false,
                        caseSensitive: caseSensitive,
                        percentEncoded: effective.percentEncoded ?? true,
                        keyPath: component.keyPath))
                }
            } else if let paths = detail.paths {
                for (index, text) in paths.enumerated() {
                    let excluded = text.hasPrefix("NOT ")
                    let body = excluded ? String(text.dropFirst(4)) : text
                    rules.append(AssociationRule(
                        path: Self.isAnything(body, isPath: true) ? nil : pattern(body, caseSensitive: true, isPath: true, usesVariables: false),
                        query: .any, fragment: nil, exclude: excluded, caseSensitive: true, percentEncoded: true,
                        keyPath: AssociationKeyPath.element(AssociationKeyPath.member(detail.keyPath, "paths"), index)))
                }
            }
            return AssociationCompiledDetail(applicationIdentifiers: detail.applicationIdentifiers, rules: rules)
        }
    }

    /// The component with absent keys filled from the entry's and the domain's defaults.
    func effectiveComponent(_ component: AppSiteAssociation.Component, in detail: AppSiteAssociation.Detail) -> AppSiteAssociation.Component {
        let entryDefaults = detail.defaults.map { $0.inheriting(from: defaults) } ?? defaults
        return component.inheriting(from: entryDefaults)
    }

    /// `*` (and, for paths, `/*`): matches every value, so no matcher is needed.
    static func isAnything(_ text: String, isPath: Bool) -> Bool {
        (isPath ? AssociationPattern.normalizedPath(text) : text) == "*"
    }
}

/// A URL split into the parts rules look at, with each variant prepared once.
struct AssociationMatchContext {
    /// The path as in the URL (percent-encoded), `""` for none.
    let rawPath: String
    /// The query without `?`, `""` when absent.
    let rawQuery: String
    /// The fragment without `#`, `""` when absent.
    let rawFragment: String

    private var paths: [Int: AssociationSubject] = [:]
    private var queries: [Int: AssociationSubject] = [:]
    private var fragments: [Int: AssociationSubject] = [:]
    private var items: [Int: [String: [AssociationSubject]]] = [:]

    init(_ url: URL) {
        if let components = URLComponents(url: url, resolvingAgainstBaseURL: true) {
            rawPath = components.percentEncodedPath
            rawQuery = components.percentEncodedQuery ?? ""
            rawFragment = components.percentEncodedFragment ?? ""
        } else {
            rawPath = url.path(percentEncoded: true)
            rawQuery = url.query(percentEncoded: true) ?? ""
            rawFragment = url.fragment(percentEncoded: true) ?? ""
        }
    }

    private static func variant(_ percentEncoded: Bool, _ caseSensitive: Bool) -> Int {
        (percentEncoded ? 0 : 2) + (caseSensitive ? 0 : 1)
    }

    /// With `percentEncoded` false the URL text is percent-decoded; the pattern never is.
    private static func text(_ raw: String, percentEncoded: Bool) -> String {
        percentEncoded ? raw : AssociationPercentDecoding.decode(raw)
    }

    /// The value `make` gives for this variant, computed once.
    private static func cached<Value>(_ cache: inout [Int: Value], _ key: Int, _ make: () -> Value) -> Value {
        if let value = cache[key] { return value }
        let value = make()
        cache[key] = value
        return value
    }

    mutating func path(percentEncoded: Bool, caseSensitive: Bool) -> AssociationSubject {
        let raw = rawPath
        return Self.cached(&paths, Self.variant(percentEncoded, caseSensitive)) {
            AssociationSubject(AssociationPattern.normalizedPath(Self.text(raw, percentEncoded: percentEncoded)), caseSensitive: caseSensitive)
        }
    }

    mutating func query(percentEncoded: Bool, caseSensitive: Bool) -> AssociationSubject {
        let raw = rawQuery
        return Self.cached(&queries, Self.variant(percentEncoded, caseSensitive)) {
            AssociationSubject(Self.text(raw, percentEncoded: percentEncoded), caseSensitive: caseSensitive)
        }
    }

    mutating func fragment(percentEncoded: Bool, caseSensitive: Bool) -> AssociationSubject {
        let raw = rawFragment
        return Self.cached(&fragments, Self.variant(percentEncoded, caseSensitive)) {
            AssociationSubject(Self.text(raw, percentEncoded: percentEncoded), caseSensitive: caseSensitive)
        }
    }

    /// Query items by name (folded when case-insensitive); a valueless item has the value `""`.
    mutating func queryItems(percentEncoded: Bool, caseSensitive: Bool) -> [String: [AssociationSubject]] {
        let raw = rawQuery
        return Self.cached(&items, Self.variant(percentEncoded, caseSensitive)) {
            var result: [String: [AssociationSubject]] = [:]
            for piece in raw.split(separator: "&", omittingEmptySubsequences: true) {
                let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                var name = Self.text(String(parts[0]), percentEncoded: percentEncoded)
                if !caseSensitive { name = AssociationCaseFolding.fold(name) }
                let value = parts.count > 1 ? Self.text(String(parts[1]), percentEncoded: percentEncoded) : ""
                result[name, default: []].append(AssociationSubject(value, caseSensitive: caseSensitive))
            }
            return result
        }
    }
}

/// Percent-decoding that keeps invalid escapes as written (`100%zz` stays as is)
/// and leaves `+` alone, as `URLComponents` does.
enum AssociationPercentDecoding {
    static func decode(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = HexDigit.value(bytes[index + 1]), let low = HexDigit.value(bytes[index + 2]) {
                result.append(high << 4 | low)
                index += 3
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
