import Foundation

// The validator's checks on what the rules mean (as opposed to their JSON shape,
// which the reader checks): substitution variables, encoding, catch-alls, rules
// that an earlier rule always pre-empts, legacy `?`, apps listed twice.

struct AssociationRuleChecks {
    let association: AppSiteAssociation
    var diagnostics: AssociationDiagnostics

    /// One pattern string as written, with the settings it is matched under.
    struct PatternSite {
        var text: String
        var keyPath: String
        var percentEncoded: Bool
        var usesVariables: Bool
    }

    mutating func run() {
        let sites = Self.patterns(of: association)
        checkVariables(sites)
        checkEncoding(sites)
        for detail in association.details { checkOrder(detail) }
        checkDuplicateApps()
    }

    // MARK: Pattern sites

    /// Every pattern written in the file, each once, where it is written.
    static func patterns(of association: AppSiteAssociation) -> [PatternSite] {
        var sites: [PatternSite] = []
        func add(_ component: AppSiteAssociation.Component, percentEncoded: Bool) {
            if let path = component.path {
                sites.append(PatternSite(text: path, keyPath: AssociationKeyPath.member(component.keyPath, "/"), percentEncoded: percentEncoded, usesVariables: true))
            }
            switch component.query {
            case .pattern(let text):
                sites.append(PatternSite(text: text, keyPath: AssociationKeyPath.member(component.keyPath, "?"), percentEncoded: percentEncoded, usesVariables: true))
            case .items(let items):
                let base = AssociationKeyPath.member(component.keyPath, "?")
                for name in items.keys.sorted() {
                    sites.append(PatternSite(text: items[name]!, keyPath: AssociationKeyPath.member(base, name), percentEncoded: percentEncoded, usesVariables: true))
                }
            case nil:
                break
            }
            if let fragment = component.fragment {
                sites.append(PatternSite(text: fragment, keyPath: AssociationKeyPath.member(component.keyPath, "#"), percentEncoded: percentEncoded, usesVariables: true))
            }
        }
        if let defaults = association.defaults {
            add(defaults, percentEncoded: defaults.percentEncoded ?? true)
        }
        let compiler = AssociationCompiler(defaults: association.defaults, variables: association.substitutionVariables)
        for detail in association.details {
            if let defaults = detail.defaults {
                add(defaults, percentEncoded: defaults.inheriting(from: association.defaults).percentEncoded ?? true)
            }
            for component in detail.components ?? [] {
                add(component, percentEncoded: compiler.effectiveComponent(component, in: detail).percentEncoded ?? true)
            }
            for (index, path) in (detail.paths ?? []).enumerated() {
                let text = path.hasPrefix("NOT ") ? String(path.dropFirst(4)) : path
                let keyPath = AssociationKeyPath.element(AssociationKeyPath.member(detail.keyPath, "paths"), index)
                sites.append(PatternSite(text: text, keyPath: keyPath, percentEncoded: true, usesVariables: false))
            }
        }
        return sites
    }

    /// The `$(name)` references in a pattern, and whether a `$(` is left unclosed.
    static func references(in text: String) -> (names: [String], unclosed: Bool) {
        var names: [String] = []
        var rest = Substring(text)
        while let start = rest.range(of: "$(") {
            guard let close = rest[start.upperBound...].firstIndex(of: ")") else { return (names, true) }
            names.append(String(rest[start.upperBound..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return (names, false)
    }

    /// The pattern with its complete `$(…)` references cut out.
    static func removingReferences(from text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: "$("), let close = rest[start.upperBound...].firstIndex(of: ")") {
            result += rest[..<start.lowerBound]
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    // MARK: Variables

    private mutating func checkVariables(_ sites: [PatternSite]) {
        let variables = AssociationVariables(custom: association.substitutionVariables)
        var used = Set<String>()
        for site in sites where site.usesVariables {
            let (names, unclosed) = Self.references(in: site.text)
            for name in names {
                used.insert(name)
                if !variables.isDefined(name) {
                    diagnostics.error("aasa_variable_undefined", "`\(site.keyPath)` uses `$(\(name))`, which is neither a predefined variable nor in `applinks.substitutionVariables`, so the pattern never matches there.")
                }
            }
            if unclosed {
                diagnostics.warning("aasa_variable_syntax", "`\(site.keyPath)` has a `$(` without a closing `)`; it is matched as literal text.")
            }
        }
        for name in association.substitutionVariables.keys.sorted() where !used.contains(name) && AssociationBuiltinVariable(rawValue: name) == nil {
            diagnostics.warning("aasa_variable_unused", "`\(AssociationKeyPath.member("applinks.substitutionVariables", name))` is never used by a pattern.")
        }
    }

    // MARK: Encoding

    private static let unencodedASCII: Set<Unicode.Scalar> = [" ", "\"", "<", ">", "\\", "^", "`", "{", "|", "}"]

    private mutating func checkEncoding(_ sites: [PatternSite]) {
        for site in sites where site.percentEncoded {
            var texts = [site.usesVariables ? Self.removingReferences(from: site.text) : site.text]
            if site.usesVariables {
                for name in Self.references(in: site.text).names where AssociationBuiltinVariable(rawValue: name) == nil {
                    texts += association.substitutionVariables[name] ?? []
                }
            }
            if let scalar = texts.lazy.flatMap(\.unicodeScalars).first(where: { !$0.isASCII }) {
                let encoded = String(scalar).utf8.map { "%" + String($0, radix: 16, uppercase: true) }.joined()
                diagnostics.error("aasa_non_ascii_pattern", "`\(site.keyPath)` contains the raw character “\(scalar)”, but URLs are compared percent-encoded (`percentEncoded` is true), so it never matches. Write it as \(encoded) or set \"percentEncoded\": false.")
            } else if let scalar = texts.lazy.flatMap(\.unicodeScalars).first(where: { Self.unencodedASCII.contains($0) }) {
                let shown = scalar == " " ? "a space" : "`\(scalar)`"
                diagnostics.warning("aasa_unencoded_character", "`\(site.keyPath)` contains \(shown), which a percent-encoded URL never contains raw, so that part never matches. Write it percent-encoded (%\(String(scalar.value, radix: 16, uppercase: true))) or set \"percentEncoded\": false.")
            }
        }
    }

    // MARK: Rule order

    /// A rule reduced to what the order checks need.
    private struct Summary {
        var keyPath: String
        var exclude: Bool
        /// The normalised path pattern (`*` when absent).
        var path: String
        var matchesAnyQueryAndFragment: Bool
        var caseSensitive: Bool
        var percentEncoded: Bool
        var usesVariables: Bool
    }

    private func summaries(of detail: AppSiteAssociation.Detail) -> [Summary] {
        if let components = detail.components {
            let compiler = AssociationCompiler(defaults: association.defaults, variables: association.substitutionVariables)
            return components.map { component in
                let effective = compiler.effectiveComponent(component, in: detail)
                let anyQuery = switch effective.query {
                case nil, .pattern("*"): true
                case .items(let items): items.values.allSatisfy { $0 == "*" }
                case .pattern: false
                }
                return Summary(
                    keyPath: component.keyPath, exclude: effective.exclude ?? false,
                    path: AssociationPattern.normalizedPath(effective.path ?? "*"),
                    matchesAnyQueryAndFragment: anyQuery && (effective.fragment ?? "*") == "*",
                    caseSensitive: effective.caseSensitive ?? true, percentEncoded: effective.percentEncoded ?? true,
                    usesVariables: true)
            }
        }
        return (detail.paths ?? []).enumerated().map { index, path in
            let excluded = path.hasPrefix("NOT ")
            return Summary(
                keyPath: AssociationKeyPath.element(AssociationKeyPath.member(detail.keyPath, "paths"), index),
                exclude: excluded, path: AssociationPattern.normalizedPath(excluded ? String(path.dropFirst(4)) : path),
                matchesAnyQueryAndFragment: true, caseSensitive: true, percentEncoded: true, usesVariables: false)
        }
    }

    private mutating func checkOrder(_ detail: AppSiteAssociation.Detail) {
        let rules = summaries(of: detail)
        for rule in rules where !rule.exclude && rule.path == "*" && rule.matchesAnyQueryAndFragment {
            diagnostics.warning("aasa_catch_all", "`\(rule.keyPath)` matches every URL of the domain, so every link opens the app and no later rule is ever reached. Exclude what should stay on the web before it, or narrow it.")
        }
        if detail.components == nil {
            for (index, path) in (detail.paths ?? []).enumerated() where path.contains("?") {
                let keyPath = AssociationKeyPath.element(AssociationKeyPath.member(detail.keyPath, "paths"), index)
                diagnostics.warning("aasa_legacy_question_mark", "`\(keyPath)` is \"\(path)\": in `paths`, `?` matches any one character, not the start of a query (legacy paths match the path only). Use `components` with a `?` key to match queries.")
            }
        }
        for later in rules.indices.dropFirst() {
            guard let earlier = rules[..<later].firstIndex(where: { covers($0, rules[later]) }) else { continue }
            let (first, second) = (rules[earlier], rules[later])
            if second.exclude, !first.exclude {
                diagnostics.error("aasa_unreachable_rule", "The exclusion `\(second.keyPath)` never applies: the earlier rule `\(first.keyPath)` already matches every URL it would, and the first matching rule wins. Move the exclusion above it.")
            } else if first.exclude, !second.exclude {
                diagnostics.warning("aasa_unreachable_rule", "`\(second.keyPath)` is never reached: the earlier exclusion `\(first.keyPath)` already blocks every URL it would match.")
            } else {
                diagnostics.warning("aasa_unreachable_rule", "`\(second.keyPath)` is redundant: the earlier rule `\(first.keyPath)` already decides every URL it would match.")
            }
        }
    }

    /// Whether `first` surely matches every URL `second` matches (a conservative
    /// check: a `*`, a literal prefix ending in `*`, or the same literal path).
    private func covers(_ first: Summary, _ second: Summary) -> Bool {
        guard first.matchesAnyQueryAndFragment, first.percentEncoded == second.percentEncoded,
              !first.caseSensitive || second.caseSensitive
        else { return false }
        if first.path == "*" { return true }
        let fold = { (text: String) in first.caseSensitive ? text : AssociationCaseFolding.fold(text) }
        let secondPath = fold(second.path)
        let secondPrefix = fold(literalPrefix(of: second.path, usesVariables: second.usesVariables))
        let secondIsLiteral = secondPrefix.unicodeScalars.count == secondPath.unicodeScalars.count
        var body = first.path
        let endsWithStar = body.hasSuffix("*")
        if endsWithStar { body.removeLast() }
        guard literalPrefix(of: body, usesVariables: first.usesVariables) == body else { return false }
        body = fold(body)
        if !endsWithStar {
            return secondIsLiteral && secondPath == body
        }
        if secondPrefix.unicodeScalars.starts(with: body.unicodeScalars) { return true }
        // `x/*` also matches the bare `x`.
        return body.hasSuffix("/") && secondIsLiteral && secondPath.unicodeScalars.elementsEqual(body.unicodeScalars.dropLast())
    }

    /// The text before the first wildcard or variable.
    private func literalPrefix(of pattern: String, usesVariables: Bool) -> String {
        var result = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in pattern.unicodeScalars {
            if scalar == "*" || scalar == "?" { break }
            if usesVariables, previous == "$", scalar == "(" {
                result.removeLast()
                break
            }
            result.append(scalar)
            previous = scalar
        }
        return String(result)
    }

    // MARK: Apps

    private mutating func checkDuplicateApps() {
        var places: [String: [String]] = [:]
        var order: [String] = []
        for detail in association.details {
            for identifier in detail.applicationIdentifiers {
                if places[identifier] == nil { order.append(identifier) }
                places[identifier, default: []].append(detail.keyPath)
            }
        }
        for identifier in order where places[identifier]!.count > 1 {
            let list = places[identifier]!.map { "`\($0)`" }.joined(separator: ", ")
            diagnostics.warning("aasa_duplicate_app", "\(identifier) appears in several entries (\(list)); for it the entries are read in order and the first matching rule wins, which is easy to get wrong.")
        }
    }
}
