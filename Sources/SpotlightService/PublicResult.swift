public import Foundation
public import PublicIndexProtocol
public import SpotlightIndex
public import SpotlightSystem

/// A result of the public index as system search shows it, under the
/// device's own results: an activity that enough people used, or a crawled
/// page, with the registered app that opens it when there is one.
///
/// ```swift
/// for result in found.publicResults {
///     print(result.title, result.app?.displayName ?? result.url?.absoluteString ?? "")
/// }
/// ```
public struct PublicResult: Sendable, Hashable, Encodable {
    /// What the public index returned.
    public var hit: PublicSearchHit
    /// The registered app that opens it, if any.
    public var app: AppRegistration?
    /// How the app was found: `app` (the activity's own app), `universal-link`
    /// or a page's deep link source (`apple-itunes-app`…).
    public var appMatch: String?
    /// What the app is handed when the result is opened.
    public var activity: UserActivityRecord?

    public var title: String { hit.title }
    public var url: URL? { hit.url }

    private enum CodingKeys: String, CodingKey {
        case kind, title, description, url, site, key, users, score, app, appMatch, publicApp
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(hit.kind.rawValue, forKey: .kind)
        try container.encode(hit.title, forKey: .title)
        try container.encode(hit.description, forKey: .description)
        try container.encode(hit.url, forKey: .url)
        try container.encode(hit.site, forKey: .site)
        try container.encode(hit.key, forKey: .key)
        try container.encode(hit.users, forKey: .users)
        try container.encode(hit.score, forKey: .score)
        try container.encode(app?.bundleIdentifier, forKey: .app)
        try container.encode(appMatch, forKey: .appMatch)
        try container.encode(hit.app, forKey: .publicApp)
    }

    /// Resolves the app: an activity's own app when registered, else a
    /// page's universal link (association file), else its deep links' App Store ids.
    init(_ hit: PublicSearchHit, apps: [AppRegistration]) {
        self.hit = hit
        if hit.kind == .activity, let bundle = hit.app, let app = apps.first(where: { $0.bundleIdentifier == bundle }),
           let type = hit.activityType {
            self.app = app
            appMatch = "app"
            var record = UserActivityRecord(activityType: type)
            record.title = hit.title
            record.webpageURL = hit.url
            if let identifier = hit.publicIdentifier,
               let info = try? JSONDecoder().decode([String: UserInfoValue].self, from: Data(identifier.utf8)) {
                record.userInfo = info
            }
            activity = record
            return
        }
        guard let url = hit.url else { return }
        if let app = apps.first(where: { app in app.applicationIdentifier.map(hit.applicationIdentifiers.contains) ?? false }) {
            self.app = app
            appMatch = "universal-link"
            activity = .browsingWeb(url)
            return
        }
        for link in hit.deepLinks {
            if let id = link.appStoreID, let app = apps.first(where: { $0.appStoreID == id }) {
                self.app = app
                appMatch = link.source
                activity = .browsingWeb(url, deepLink: link.url)
                return
            }
        }
    }
}
