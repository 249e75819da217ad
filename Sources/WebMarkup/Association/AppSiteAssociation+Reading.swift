import StrictJSON
import Foundation

// From JSON to the association model, reporting structural problems on the way.
//
// One walk serves both users: `AppSiteAssociation.init` discards the findings,
// `AssociationValidator` keeps them. Anything of the wrong type is left out of the
// model (as if absent) and reported as `aasa_wrong_type`; nothing here throws.

/// Findings collected while reading or checking a file.
struct AssociationDiagnostics {
    var findings: [AssociationFinding] = []

    mutating func error(_ code: String, _ message: String) {
        findings.append(AssociationFinding(code: code, severity: .error, message: message))
    }

    mutating func warning(_ code: String, _ message: String) {
        findings.append(AssociationFinding(code: code, severity: .warning, message: message))
    }
}

/// Key paths for messages: `applinks.details[0].components[2]["/"]`.
enum AssociationKeyPath {
    static func member(_ base: String, _ key: String) -> String {
        let plain = !key.isEmpty && key.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
        }
        if plain { return base.isEmpty ? key : base + "." + key }
        let escaped = key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return base + "[\"" + escaped + "\"]"
    }

    static func element(_ base: String, _ index: Int) -> String {
        base + "[\(index)]"
    }
}

/// Known keys, and the nearest known key for a misspelt one.
enum AssociationKeys {
    static let root = ["applinks", "webcredentials", "activitycontinuation", "appclips", "spotlight-image-search"]
    static let appLinks = ["apps", "details", "defaults", "substitutionVariables"]
    static let detail = ["appID", "appIDs", "paths", "components", "defaults"]
    static let component = ["/", "?", "#", "exclude", "comment", "caseSensitive", "percentEncoded"]
    static let service = ["apps"]

    /// A known key that `key` probably meant: same letters in another case, or
    /// one edit away (two for keys of six or more characters).
    static func suggestion(for key: String, among known: [String]) -> String? {
        let lower = key.lowercased()
        if let same = known.first(where: { $0.lowercased() == lower }) { return same }
        guard key.count >= 3 else { return nil }
        let allowed = key.count >= 6 ? 2 : 1
        return known.filter { $0.count >= 3 }
            .map { ($0, editDistance(Array(lower), Array($0.lowercased()))) }
            .filter { $0.1 <= allowed }
            .min { $0.1 < $1.1 }?.0
    }

    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard abs(a.count - b.count) <= 2, a.count < 64, b.count < 64 else { return 3 }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    static func reportUnknown(_ key: String, at path: String, among known: [String], in diagnostics: inout AssociationDiagnostics) {
        if let suggestion = suggestion(for: key, among: known) {
            diagnostics.error("aasa_unknown_key", "Unknown key `\(path)`: did you mean `\(suggestion)`? Keys are case-sensitive and Apple silently ignores unknown ones, so this setting has no effect.")
        } else {
            diagnostics.warning("aasa_unknown_key", "Unknown key `\(path)`; Apple ignores it.")
        }
    }
}

/// `^[A-Z0-9]{10}\.[A-Za-z0-9.-]+$`: a team ID (app ID prefix), a dot, a bundle ID.
enum AssociationAppID {
    static func isValid(_ identifier: String) -> Bool {
        let scalars = Array(identifier.unicodeScalars)
        guard scalars.count >= 12, scalars[10] == "." else { return false }
        let prefixOK = scalars[..<10].allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
        let bundleOK = scalars[11...].allSatisfy {
            ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-"
        }
        return prefixOK && bundleOK
    }

    static func check(_ identifier: String, at path: String, in diagnostics: inout AssociationDiagnostics) {
        guard !isValid(identifier) else { return }
        diagnostics.error("aasa_bad_app_id", "`\(path)` is \"\(identifier)\", which is not an app ID: it must be a 10-character team ID (A–Z, 0–9), a dot and a bundle ID (`ABCDE12345.com.example.app`).")
    }
}

extension AppSiteAssociation {
    /// Builds the model from a parsed root dictionary, reporting structural findings.
    init(root: OrderedJSON.Object, isSigned: Bool, diagnostics: inout AssociationDiagnostics) {
        var reader = AssociationReader(diagnostics: diagnostics)
        reader.readRoot(root)
        diagnostics = reader.diagnostics

        self.isSigned = isSigned
        hasAppLinks = reader.hasAppLinks
        defaults = reader.domainDefaults
        substitutionVariables = reader.variables
        details = reader.details
        webCredentialsApps = reader.services["webcredentials"] ?? []
        activityContinuationApps = reader.services["activitycontinuation"] ?? []
        appClipApps = reader.services["appclips"] ?? []
        compiledDetails = AssociationCompiler(defaults: reader.domainDefaults, variables: reader.variables).compile(reader.details)
    }
}

/// The walk itself.
struct AssociationReader {
    var diagnostics: AssociationDiagnostics
    var hasAppLinks = false
    var domainDefaults: AppSiteAssociation.Component?
    var variables: [String: [String]] = [:]
    var details: [AppSiteAssociation.Detail] = []
    var services: [String: [String]] = [:]

    init(diagnostics: AssociationDiagnostics) {
        self.diagnostics = diagnostics
    }

    private mutating func wrongType(_ path: String, expected: String, found value: OrderedJSON, consequence: String = "it is ignored") {
        diagnostics.error("aasa_wrong_type", "`\(path)` must be \(expected), but it is \(value.kindDescription); \(consequence).")
    }

    private mutating func reportDuplicates(_ object: OrderedJSON.Object, at path: String) {
        for key in object.duplicateKeys {
            diagnostics.warning("aasa_duplicate_key", "`\(AssociationKeyPath.member(path, key))` appears more than once; only the last one counts.")
        }
    }

    mutating func readRoot(_ root: OrderedJSON.Object) {
        reportDuplicates(root, at: "")
        for member in root.uniqueMembers {
            switch member.key {
            case "applinks":
                hasAppLinks = true
                if let object = member.value.objectValue {
                    readAppLinks(object)
                } else {
                    wrongType("applinks", expected: "a dictionary", found: member.value, consequence: "no URL opens an app")
                }
            case "webcredentials", "activitycontinuation", "appclips":
                services[member.key] = readService(member.value, at: member.key)
            case "spotlight-image-search":
                break
            default:
                AssociationKeys.reportUnknown(member.key, at: AssociationKeyPath.member("", member.key), among: AssociationKeys.root, in: &diagnostics)
            }
        }
        if !hasAppLinks {
            diagnostics.warning("aasa_no_applinks", "The file has no `applinks` dictionary, so no URL of the domain opens an app as a universal link.")
        }
    }

    private mutating func readService(_ value: OrderedJSON, at path: String) -> [String] {
        guard let object = value.objectValue else {
            wrongType(path, expected: "a dictionary with an `apps` array", found: value)
            return []
        }
        reportDuplicates(object, at: path)
        for key in object.keys where !AssociationKeys.service.contains(key) {
            AssociationKeys.reportUnknown(key, at: AssociationKeyPath.member(path, key), among: AssociationKeys.service, in: &diagnostics)
        }
        let appsPath = AssociationKeyPath.member(path, "apps")
        guard let apps = object["apps"] else {
            diagnostics.error("aasa_missing_key", "`\(path)` has no `apps` array, so it names no app.")
            return []
        }
        return readAppIDArray(apps, at: appsPath)
    }

    private mutating func readAppIDArray(_ value: OrderedJSON, at path: String) -> [String] {
        guard let array = value.arrayValue else {
            wrongType(path, expected: "an array of app IDs", found: value)
            return []
        }
        var result: [String] = []
        for (index, element) in array.enumerated() {
            let elementPath = AssociationKeyPath.element(path, index)
            guard let identifier = element.stringValue else {
                wrongType(elementPath, expected: "an app ID string", found: element)
                continue
            }
            AssociationAppID.check(identifier, at: elementPath, in: &diagnostics)
            result.append(identifier)
        }
        return result
    }

    private mutating func readAppLinks(_ appLinks: OrderedJSON.Object) {
        reportDuplicates(appLinks, at: "applinks")
        for key in appLinks.keys where !AssociationKeys.appLinks.contains(key) {
            AssociationKeys.reportUnknown(key, at: AssociationKeyPath.member("applinks", key), among: AssociationKeys.appLinks, in: &diagnostics)
        }
        if let apps = appLinks["apps"] {
            if let array = apps.arrayValue {
                if !array.isEmpty {
                    diagnostics.warning("aasa_legacy_apps_not_empty", "`applinks.apps` must be an empty array (iOS 9–12 required it; iOS 13+ ignores it); it lists \(array.count) value(s).")
                }
            } else {
                wrongType("applinks.apps", expected: "an empty array", found: apps)
            }
        }
        if let value = appLinks["substitutionVariables"] {
            readVariables(value)
        }
        if let value = appLinks["defaults"] {
            domainDefaults = readComponent(value, at: "applinks.defaults")
        }
        guard let value = appLinks["details"] else {
            diagnostics.warning("aasa_missing_key", "`applinks` has no `details`, so no URL opens an app.")
            return
        }
        switch value {
        case .array(let entries):
            for (index, entry) in entries.enumerated() {
                let path = AssociationKeyPath.element("applinks.details", index)
                guard let object = entry.objectValue else {
                    wrongType(path, expected: "a dictionary", found: entry)
                    continue
                }
                details.append(readDetail(object, at: path, impliedAppID: nil))
            }
        case .object(let object):
            diagnostics.warning("aasa_legacy_details_dictionary", "`applinks.details` is a dictionary keyed by app ID (the first iOS 9 format). It still works, but its order is undefined (read here in sorted order); use an array of dictionaries with `appIDs`.")
            reportDuplicates(object, at: "applinks.details")
            for key in object.keys.sorted() {
                let path = AssociationKeyPath.member("applinks.details", key)
                let entry = object[key]!
                guard let entryObject = entry.objectValue else {
                    wrongType(path, expected: "a dictionary", found: entry)
                    continue
                }
                details.append(readDetail(entryObject, at: path, impliedAppID: key))
            }
        default:
            wrongType("applinks.details", expected: "an array of dictionaries", found: value, consequence: "no URL opens an app")
        }
    }

    private mutating func readVariables(_ value: OrderedJSON) {
        let path = "applinks.substitutionVariables"
        guard let object = value.objectValue else {
            wrongType(path, expected: "a dictionary of name → array of strings", found: value)
            return
        }
        reportDuplicates(object, at: path)
        for member in object.uniqueMembers {
            let variablePath = AssociationKeyPath.member(path, member.key)
            let name = member.key
            if name.isEmpty || name.contains(where: { $0 == "$" || $0 == "(" || $0 == ")" }) {
                diagnostics.error("aasa_variable_bad_name", "`\(variablePath)`: a variable name may not be empty or contain `$`, `(` or `)`, so `$(\(name))` cannot be used.")
            } else if AssociationBuiltinVariable(rawValue: name) != nil {
                diagnostics.warning("aasa_variable_shadows_builtin", "`\(variablePath)` has the name of a predefined variable; `$(\(name))` keeps meaning the predefined values and this definition is ignored.")
            }
            guard let array = member.value.arrayValue else {
                wrongType(variablePath, expected: "an array of strings", found: member.value)
                continue
            }
            var values: [String] = []
            for (index, element) in array.enumerated() {
                let elementPath = AssociationKeyPath.element(variablePath, index)
                guard let string = element.stringValue else {
                    wrongType(elementPath, expected: "a string", found: element)
                    continue
                }
                if string.contains("$(") {
                    diagnostics.error("aasa_variable_nested", "`\(elementPath)` is \"\(string)\": a variable's value may not use another variable; the `$(` is matched literally.")
                }
                values.append(string)
            }
            if values.isEmpty {
                diagnostics.warning("aasa_variable_empty", "`\(variablePath)` has no values, so a pattern using `$(\(name))` never matches.")
            }
            variables[name] = values
        }
    }

    private mutating func readDetail(_ entry: OrderedJSON.Object, at path: String, impliedAppID: String?) -> AppSiteAssociation.Detail {
        reportDuplicates(entry, at: path)
        var identifiers: [String] = []
        if let impliedAppID {
            AssociationAppID.check(impliedAppID, at: path + " (key)", in: &diagnostics)
            identifiers.append(impliedAppID)
        }
        var components: [AppSiteAssociation.Component]?
        var paths: [String]?
        var defaults: AppSiteAssociation.Component?
        for member in entry.uniqueMembers {
            let memberPath = AssociationKeyPath.member(path, member.key)
            switch member.key {
            case "appID":
                if let identifier = member.value.stringValue {
                    AssociationAppID.check(identifier, at: memberPath, in: &diagnostics)
                    identifiers.append(identifier)
                } else {
                    wrongType(memberPath, expected: "an app ID string", found: member.value)
                }
            case "appIDs":
                identifiers += readAppIDArray(member.value, at: memberPath)
            case "paths":
                guard let array = member.value.arrayValue else {
                    wrongType(memberPath, expected: "an array of strings", found: member.value)
                    continue
                }
                var result: [String] = []
                for (index, element) in array.enumerated() {
                    if let string = element.stringValue {
                        result.append(string)
                    } else {
                        wrongType(AssociationKeyPath.element(memberPath, index), expected: "a string", found: element)
                    }
                }
                paths = result
            case "components":
                guard let array = member.value.arrayValue else {
                    wrongType(memberPath, expected: "an array of dictionaries", found: member.value)
                    continue
                }
                var result: [AppSiteAssociation.Component] = []
                for (index, element) in array.enumerated() {
                    if let component = readComponent(element, at: AssociationKeyPath.element(memberPath, index)) {
                        result.append(component)
                    }
                }
                components = result
            case "defaults":
                defaults = readComponent(member.value, at: memberPath)
            default:
                AssociationKeys.reportUnknown(member.key, at: memberPath, among: AssociationKeys.detail, in: &diagnostics)
            }
        }
        var seen = Set<String>()
        identifiers = identifiers.filter { seen.insert($0).inserted }
        if identifiers.isEmpty {
            diagnostics.error("aasa_no_app_id", "`\(path)` names no app (no `appID` or `appIDs`), so its rules apply to nothing.")
        }
        if components != nil, paths != nil {
            diagnostics.warning("aasa_paths_ignored", "`\(path)` has both `components` and `paths`: iOS 13 and later ignore `paths` (only iOS 12 and earlier read them).")
        } else if components == nil, paths == nil {
            diagnostics.warning("aasa_missing_key", "`\(path)` has neither `components` nor `paths`, so it matches no URL.")
        }
        return AppSiteAssociation.Detail(applicationIdentifiers: identifiers, defaults: defaults, components: components, paths: paths, keyPath: path)
    }

    /// Reads a component or a `defaults` dictionary (same keys).
    private mutating func readComponent(_ value: OrderedJSON, at path: String) -> AppSiteAssociation.Component? {
        guard let object = value.objectValue else {
            wrongType(path, expected: "a dictionary", found: value)
            return nil
        }
        reportDuplicates(object, at: path)
        var patterns: [String: String] = [:]
        var flags: [String: Bool] = [:]
        var query: AppSiteAssociation.Query?
        var comment: String?
        for member in object.uniqueMembers {
            let memberPath = AssociationKeyPath.member(path, member.key)
            switch member.key {
            case "/", "#":
                if let string = member.value.stringValue {
                    patterns[member.key] = string
                } else {
                    wrongType(memberPath, expected: "a pattern string", found: member.value, consequence: "it is ignored (as if absent)")
                }
            case "?":
                query = readQuery(member.value, at: memberPath)
            case "exclude", "caseSensitive", "percentEncoded":
                if let flag = member.value.boolValue {
                    flags[member.key] = flag
                } else {
                    wrongType(memberPath, expected: "true or false", found: member.value, consequence: "it is ignored (as if absent); Apple does not document how it reads other types")
                }
            case "comment":
                comment = member.value.stringValue
            default:
                AssociationKeys.reportUnknown(member.key, at: memberPath, among: AssociationKeys.component, in: &diagnostics)
            }
        }
        return AppSiteAssociation.Component(
            path: patterns["/"], query: query, fragment: patterns["#"], exclude: flags["exclude"],
            caseSensitive: flags["caseSensitive"], percentEncoded: flags["percentEncoded"], comment: comment, keyPath: path)
    }

    private mutating func readQuery(_ value: OrderedJSON, at path: String) -> AppSiteAssociation.Query? {
        switch value {
        case .string(let pattern):
            return .pattern(pattern)
        case .object(let object):
            reportDuplicates(object, at: path)
            var items: [String: String] = [:]
            var offending: [String] = []
            for member in object.uniqueMembers {
                if let string = member.value.stringValue {
                    items[member.key] = string
                } else {
                    offending.append("`\(AssociationKeyPath.member(path, member.key))` is \(member.value.kindDescription)")
                }
            }
            guard offending.isEmpty else {
                diagnostics.error("aasa_non_string_query", "\(offending.joined(separator: ", ")): every query item pattern must be a string. Apple then ignores the whole `?` dictionary, so none of its constraints apply and the rule matches any query.")
                return nil
            }
            return .items(items)
        default:
            wrongType(path, expected: "a pattern string or a dictionary of item name → pattern", found: value, consequence: "it is ignored (as if absent)")
            return nil
        }
    }
}
