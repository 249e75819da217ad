import StrictJSON
public import Foundation

/// Checks an `apple-app-site-association` file the way a developer needs it
/// checked: how it was served, whether Apple can read it, and whether its rules do
/// what they seem to say.
///
/// ```swift
/// let findings = AssociationValidator.validate(
///     data: body,
///     fetch: AssociationFetch(statusCode: 200, contentType: "application/json", byteCount: body.count),
///     sampleURLs: [URL(string: "https://example.com/buy/42")!])
/// for finding in findings { print(finding.severity, finding.code, finding.message) }
/// ```
///
/// Never throws: every problem is a finding. Codes:
///
/// | Code | Severity | Meaning |
/// |---|---|---|
/// | `aasa_unreachable` | error | HTTP status other than 200 (the body is not checked) |
/// | `aasa_redirect` | error | the file was reached through a redirect, which Apple does not follow |
/// | `aasa_bad_content_type` | warning | not `application/json` (`application/pkcs7-mime` when signed) |
/// | `aasa_too_large` | error | over 128 KB |
/// | `aasa_signed` | warning | CMS-signed (iOS 8 form); the signature was not verified |
/// | `aasa_invalid_signed_data` | error | looks signed but the CMS structure cannot be read |
/// | `aasa_invalid_utf8`, `aasa_invalid_json`, `aasa_not_object` | error | the text cannot be read |
/// | `aasa_no_applinks` | warning | no `applinks`: no universal links |
/// | `aasa_missing_key` | error/warning | `apps` of a service, `details`, or an entry's rules missing |
/// | `aasa_wrong_type` | error | a value of the wrong type, ignored (`"exclude": 1` is not `true`) |
/// | `aasa_duplicate_key` | warning | a key repeated in one dictionary (the last one counts) |
/// | `aasa_legacy_apps_not_empty` | warning | `applinks.apps` not empty |
/// | `aasa_legacy_details_dictionary` | warning | `details` keyed by app ID |
/// | `aasa_paths_ignored` | warning | an entry with both `paths` and `components` |
/// | `aasa_no_app_id`, `aasa_bad_app_id` | error | an entry without an app, or a malformed app ID |
/// | `aasa_duplicate_app` | warning | an app listed by several entries |
/// | `aasa_unknown_key` | error/warning | error when it looks like a misspelt key (`casesensitive`) |
/// | `aasa_non_string_query` | error | a non-string query item pattern: Apple ignores the whole `?` dictionary |
/// | `aasa_variable_bad_name`, `aasa_variable_nested`, `aasa_variable_undefined` | error | substitution-variable mistakes |
/// | `aasa_variable_shadows_builtin`, `aasa_variable_empty`, `aasa_variable_unused`, `aasa_variable_syntax` | warning | |
/// | `aasa_variable_region_uk` | warning | a sample URL fails only because `$(region)` has GB, not UK |
/// | `aasa_unreachable_rule` | error/warning | a rule an earlier, broader rule always pre-empts (error for an exclusion) |
/// | `aasa_catch_all` | warning | a rule matching every URL of the domain |
/// | `aasa_legacy_question_mark` | warning | `?` in a legacy path is a wildcard, not a query |
/// | `aasa_non_ascii_pattern` | error | raw non-ASCII in a pattern compared percent-encoded: it never matches |
/// | `aasa_unencoded_character` | warning | a raw space, `"`, `<`, … that a percent-encoded URL never contains |
/// | `aasa_no_app_for_url` | warning | a sample URL opens no app |
///
/// See Apple's [Supporting associated domains](https://developer.apple.com/documentation/xcode/supporting-associated-domains)
/// and TN3155 *Debugging universal links*.
public enum AssociationValidator {
    /// Checks a fetched association file.
    ///
    /// - Parameters:
    ///   - data: the body as received.
    ///   - fetch: what the crawler saw (status, headers, redirects); nil to check the content only.
    ///   - sampleURLs: URLs of the site that should open an app; each one that opens none is reported.
    /// - Returns: the findings, in the order found, each once.
    public static func validate(data: Data, fetch: AssociationFetch?, sampleURLs: [URL] = []) -> [AssociationFinding] {
        var diagnostics = AssociationDiagnostics()
        let isSigned = SignedAssociation.isSignedData(data)
        if let fetch {
            checkFetch(fetch, isSigned: isSigned, in: &diagnostics)
            if fetch.statusCode != 200 { return unique(diagnostics.findings) }
        }
        let size = max(data.count, fetch?.byteCount ?? 0)
        if size > AppSiteAssociation.maximumByteCount {
            diagnostics.error("aasa_too_large", "The file is \(size) bytes; Apple reads at most \(AppSiteAssociation.maximumByteCount) bytes (128 KB), so it is rejected.")
        }
        var bytes = [UInt8](data)
        if isSigned {
            diagnostics.warning("aasa_signed", "The file is CMS-signed (the iOS 8 form, deprecated since WWDC19). Its signature was not verified here. Serve the plain JSON as application/json instead.")
            do {
                bytes = [UInt8](try SignedAssociation.content(of: data))
            } catch {
                diagnostics.error("aasa_invalid_signed_data", error.message)
                return unique(diagnostics.findings)
            }
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            diagnostics.error("aasa_invalid_utf8", "The file is not valid UTF-8 text, so it cannot be read as JSON.")
            return unique(diagnostics.findings)
        }
        let value: OrderedJSON
        do {
            value = try AssociationJSON.parse(bytes)
        } catch {
            diagnostics.error("aasa_invalid_json", "The file is not valid JSON: \(error.message).")
            return unique(diagnostics.findings)
        }
        guard let root = value.objectValue else {
            diagnostics.error("aasa_not_object", "The file's top level is \(value.kindDescription); it must be a dictionary with `applinks` and the other services.")
            return unique(diagnostics.findings)
        }
        let association = AppSiteAssociation(root: root, isSigned: isSigned, diagnostics: &diagnostics)
        var rules = AssociationRuleChecks(association: association, diagnostics: diagnostics)
        rules.run()
        diagnostics = rules.diagnostics
        checkSamples(sampleURLs, in: association, diagnostics: &diagnostics)
        return unique(diagnostics.findings)
    }

    private static func unique(_ findings: [AssociationFinding]) -> [AssociationFinding] {
        var seen = Set<AssociationFinding>()
        return findings.filter { seen.insert($0).inserted }
    }

    private static func checkFetch(_ fetch: AssociationFetch, isSigned: Bool, in diagnostics: inout AssociationDiagnostics) {
        if !fetch.redirects.isEmpty {
            let chain = fetch.redirects.map(\.absoluteString).joined(separator: " → ")
            let final = fetch.finalURL.map { " (final URL \($0.absoluteString))" } ?? ""
            diagnostics.error("aasa_redirect", "The file was reached through \(fetch.redirects.count) redirect(s): \(chain)\(final). Apple does not follow redirects for this file, even http→https or apex→www; serve it directly at https://<domain>\(AppSiteAssociation.wellKnownPath).")
        }
        if fetch.statusCode != 200 {
            diagnostics.error("aasa_unreachable", "Fetching the file returned HTTP \(fetch.statusCode); Apple needs 200, so the domain has no association file.")
            return
        }
        let expected = isSigned ? "application/pkcs7-mime" : "application/json"
        guard let contentType = fetch.contentType else {
            diagnostics.warning("aasa_bad_content_type", "The file was served without a Content-Type; send `\(expected)`.")
            return
        }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        if mediaType != expected {
            diagnostics.warning("aasa_bad_content_type", "The file was served as `\(contentType)`; Apple's guide asks for `\(expected)`. Devices usually accept it anyway.")
        }
    }

    private static func checkSamples(_ urls: [URL], in association: AppSiteAssociation, diagnostics: inout AssociationDiagnostics) {
        guard association.hasAppLinks else { return }
        let usesRegion = AssociationRuleChecks.patterns(of: association).contains { $0.text.contains("$(region)") }
        for url in urls where association.handler(for: url) == nil {
            var context = AssociationMatchContext(url)
            let reasons = association.applicationIdentifiers.map { identifier -> String in
                let decision = association.decide(&context, applicationIdentifier: identifier)
                return decision.result == .block
                    ? "blocked for \(identifier) by `\(decision.rule ?? "?")`"
                    : "no rule for \(identifier) matches"
            }
            let detail = reasons.isEmpty ? "the file names no app" : reasons.joined(separator: "; ")
            diagnostics.warning("aasa_no_app_for_url", "The sample URL \(url.absoluteString) opens no app: \(detail).")
            if usesRegion, let replaced = replacingUK(in: url), association.handler(for: replaced) != nil {
                diagnostics.warning("aasa_variable_region_uk", "The sample URL \(url.absoluteString) would match with GB instead of UK: `$(region)` is Foundation's ISO region list, where the United Kingdom is GB, and it does not contain UK. Add a variable with \"UK\" or use GB in URLs.")
            }
        }
    }

    private static func replacingUK(in url: URL) -> URL? {
        let text = url.absoluteString
        guard text.contains("UK") || text.contains("uk") else { return nil }
        return URL(string: text.replacingOccurrences(of: "UK", with: "GB").replacingOccurrences(of: "uk", with: "gb"))
    }
}
