public import Foundation
import SpotlightIndex
public import SpotlightSystem

/// A page of the public web index, as system search shows it beside app results.
///
/// When a registered app handles the page — the site's apple-app-site-association
/// hands the URL to the app's ``AppRegistration/applicationIdentifier``, or the
/// page's Smart App Banner (App Links, Twitter app card) names its
/// ``AppRegistration/appStoreID`` — the result opens in that app. Otherwise it
/// shows the App Store id to get the app, and opens the page in a browser.
public struct WebResult: Sendable, Hashable, Encodable {
    public var url: URL
    public var title: String
    public var description: String?
    public var imageURL: URL?
    /// The registered app the result opens in, if any.
    public var app: AppRegistration?
    /// How the app was found: `universal-link` or the deep link's source (`apple-itunes-app`…).
    public var appMatch: String?
    /// The deep link handed to the app (the page URL for a universal link).
    public var deepLink: String?
    /// The App Store id to get the app, when no registered app handles the page.
    public var appStoreID: String?
    /// The apps (`TEAMID.bundle`) the site's association file hands the page to, installed or not.
    public var associatedApps: [String]
    public var score: Double
    public var explanation: String

    private enum CodingKeys: String, CodingKey {
        case url, title, description, imageURL, app, appMatch, deepLink, appStoreID, associatedApps, score, explanation
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(url, forKey: .url)
        try container.encode(title, forKey: .title)
        try container.encode(description, forKey: .description)
        try container.encode(imageURL, forKey: .imageURL)
        try container.encode(app?.bundleIdentifier, forKey: .app)
        try container.encode(appMatch, forKey: .appMatch)
        try container.encode(deepLink, forKey: .deepLink)
        try container.encode(appStoreID, forKey: .appStoreID)
        try container.encode(associatedApps, forKey: .associatedApps)
        try container.encode(score, forKey: .score)
        try container.encode(explanation, forKey: .explanation)
    }

    /// Resolves which registered app (if any) opens `page`: a universal link
    /// first (association file order), then the markup's deep links in order.
    init(_ page: WebPage, score: Double, explanation: String, apps: [AppRegistration]) {
        url = page.url
        title = page.title
        description = page.description
        imageURL = page.imageURL
        associatedApps = page.applicationIdentifiers
        self.score = score
        self.explanation = explanation
        for identifier in page.applicationIdentifiers {
            if let app = apps.first(where: { $0.applicationIdentifier == identifier }) {
                self.app = app
                appMatch = DeepLinkSource.universalLink
                deepLink = page.url.absoluteString
                return
            }
        }
        for link in page.deepLinks where link.source != DeepLinkSource.universalLink {
            if let id = link.appStoreID, let app = apps.first(where: { $0.appStoreID == id }) {
                self.app = app
                appMatch = link.source
                deepLink = link.url
                return
            }
        }
        appStoreID = page.appStoreIDs.first
        deepLink = page.deepLinks.first?.url
    }

    /// The activity the app is handed: `NSUserActivityTypeBrowsingWeb` with a web
    /// deep link as `webpageURL` (else the page's URL, the custom-scheme link in `userInfo`).
    var activity: UserActivityRecord? {
        guard app != nil, let deepLink else { return nil }
        if let link = URL(string: deepLink), let scheme = link.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            return .browsingWeb(link)
        }
        return .browsingWeb(url, deepLink: deepLink)
    }
}

enum DeepLinkSource {
    static let universalLink = "universal-link"
}
