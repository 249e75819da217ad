/// One problem ``AssociationValidator`` found in an association file or in how it is served.
///
/// ```swift
/// for finding in AssociationValidator.validate(data: body, fetch: fetch) where finding.severity == .error {
///     print(finding.code, finding.message)   // "aasa_redirect", "The file was reached through …"
/// }
/// ```
///
/// ``code`` is stable snake_case (`aasa_unknown_key`, `aasa_bad_app_id`, …; the list is in
/// ``AssociationValidator``); ``message`` is for people and names the key path, e.g.
/// `applinks.details[0].components[2].casesensitive`.
public struct AssociationFinding: Sendable, Hashable, Codable {
    /// How serious a finding is; encoded as `"error"` or `"warning"`.
    ///
    /// ```swift
    /// let blocking = findings.filter { $0.severity == .error }
    /// ```
    public enum Severity: String, Sendable, Hashable, Codable {
        /// Apple rejects the file, ignores part of it, or it does not do what it says.
        case error
        /// Works, but is deprecated, fragile or probably not what was meant.
        case warning
    }

    /// A stable identifier such as `aasa_unknown_key`.
    public var code: String
    public var severity: Severity
    /// What is wrong and where, in a sentence or two.
    public var message: String

    public init(code: String, severity: Severity, message: String) {
        self.code = code
        self.severity = severity
        self.message = message
    }
}
