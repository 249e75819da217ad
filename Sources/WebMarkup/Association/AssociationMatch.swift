/// What an association file says about one URL for one app: Apple's
/// `swcutil`-style answer.
///
/// ```swift
/// switch association.match(url, applicationIdentifier: "ABCDE12345.com.example.app") {
/// case .match: print("opens the app")
/// case .block: print("an exclusion stops it; opens in the browser")
/// case .none: print("no rule for this app matches")
/// }
/// ```
///
/// `.block` comes from the first matching rule being an exclusion (`"exclude": true`
/// or a legacy `NOT ` path): matching stops there, it does not move on to later rules.
/// See Apple's [applinks.Details.Components](https://developer.apple.com/documentation/bundleresources/applinks/details/components).
public enum AssociationMatch: String, Sendable, Hashable, Codable {
    /// The first matching rule accepts the URL: it opens the app.
    case match
    /// The first matching rule is an exclusion: the URL stays in the browser.
    case block
    /// No rule for this app matches the URL.
    case none
}
