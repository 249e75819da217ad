/// A link into an app that a page declares, and where it was declared.
///
/// Sources, in the order ``PageMetadata/deepLinks`` lists them (the Smart App
/// Banner first, as Apple prefers it; device-specific App Links before `al:ios`):
/// `apple-itunes-app`, `al:iphone`, `al:ipad`, `al:ios`, `twitter:iphone`, `twitter:ipad`.
/// The crawler adds `universal-link` when the site's association file names an app for the page.
///
/// ```swift
/// DeepLink(source: .smartAppBanner, url: "https://example.com/p/1", appStoreID: "284882215")
/// ```
public struct DeepLink: Sendable, Hashable, Codable {
    /// Where a deep link came from.
    public struct Source: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        public static let smartAppBanner = Source(rawValue: "apple-itunes-app")
        public static let appLinksIPhone = Source(rawValue: "al:iphone")
        public static let appLinksIPad = Source(rawValue: "al:ipad")
        public static let appLinksIOS = Source(rawValue: "al:ios")
        public static let twitterIPhone = Source(rawValue: "twitter:iphone")
        public static let twitterIPad = Source(rawValue: "twitter:ipad")
        /// The page's own URL, handled by an app through apple-app-site-association.
        public static let universalLink = Source(rawValue: "universal-link")
    }

    public var source: Source
    /// The URL the app opens: a universal link (`https:`) or a custom scheme.
    public var url: String
    /// The App Store id that goes with it, when the markup gives one.
    public var appStoreID: String?
    /// The app's name, when the markup gives one (`al:ios:app_name`, `twitter:app:name:iphone`).
    public var appName: String?

    public init(source: Source, url: String, appStoreID: String? = nil, appName: String? = nil) {
        self.source = source
        self.url = url
        self.appStoreID = appStoreID
        self.appName = appName
    }
}
