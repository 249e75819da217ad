/// The Smart App Banner: `<meta name="apple-itunes-app" content="app-id=…, app-argument=…">`.
///
/// Parsed as the spec says: the attribute after entity decoding, split on `,`,
/// each pair split on its **first** `=` (values such as `affiliate-data=ct=x&pt=y`
/// hold `=` and `&`), trimmed, keys lower-case. Only the first such tag in
/// `<head>` counts; Apple's sample typo `name="myApp"` is not a banner.
///
/// ```swift
/// let banner = SmartAppBanner(content: "app-id=284882215, app-argument=https://example.com/p/1")
/// banner.appID        // "284882215"
/// banner.appArgument  // "https://example.com/p/1"
/// ```
public struct SmartAppBanner: Sendable, Hashable, Codable {
    /// The numeric App Store id (required by Apple; `nil` when the tag has none).
    public var appID: String?
    /// The URL handed to the app: the deep link Applebot indexes.
    public var appArgument: String?
    public var affiliateData: String?
    public var appClipBundleID: String?
    /// `card` asks for the full App Clip card.
    public var appClipDisplay: String?
    /// What is wrong with the tag (`banner_without_app_id`, `banner_app_id_not_numeric`,
    /// `banner_without_app_argument`, `banner_comma_in_argument`, `banner_unknown_key`).
    public var problems: [String]

    public init(content: String) {
        var values: [String: String] = [:]
        var problems: [String] = []
        var lastKey: String?
        for pair in content.split(separator: ",", omittingEmptySubsequences: true) {
            guard let equals = pair.firstIndex(of: "=") else {
                // A comma inside app-argument cannot be written reliably: keep it, and warn.
                if lastKey == "app-argument", let previous = values["app-argument"] {
                    values["app-argument"] = previous + "," + String(pair)
                    problems.append("banner_comma_in_argument")
                }
                continue
            }
            let key = String(pair[..<equals]).markupTrimmed.lowercased()
            let value = String(pair[pair.index(after: equals)...]).markupTrimmed
            guard values[key] == nil else { continue }
            values[key] = value
            lastKey = key
            if !Self.knownKeys.contains(key) { problems.append("banner_unknown_key") }
        }
        appID = values["app-id"].flatMap { $0.isEmpty ? nil : $0 }
        appArgument = values["app-argument"].flatMap { $0.isEmpty ? nil : $0 }.map(\.markupTrimmed)
        affiliateData = values["affiliate-data"]
        appClipBundleID = values["app-clip-bundle-id"]
        appClipDisplay = values["app-clip-display"]
        if let appID {
            if !appID.allSatisfy(\.isASCIIDigit) { problems.append("banner_app_id_not_numeric") }
        } else {
            problems.append("banner_without_app_id")
        }
        if appArgument == nil { problems.append("banner_without_app_argument") }
        var seen = Set<String>()
        self.problems = problems.filter { seen.insert($0).inserted }
    }

    static let knownKeys: Set<String> = ["app-id", "app-argument", "affiliate-data", "app-clip-bundle-id", "app-clip-display"]
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
