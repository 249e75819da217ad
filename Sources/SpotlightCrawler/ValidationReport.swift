public import Foundation
public import WebMarkup

/// What ``SiteValidator`` found: checks passed or not, findings with stable
/// codes, and a preview of the search result the page would make.
public struct ValidationReport: Sendable, Encodable {
    public enum Severity: String, Sendable, Encodable {
        case error, warning
    }

    /// One problem: a stable `code` (`missing_title`, `aasa_redirect`…), how bad, and what to do.
    public struct Finding: Sendable, Encodable, Hashable {
        public var code: String
        public var severity: Severity
        public var message: String
        public init(_ code: String, _ severity: Severity, _ message: String) {
            self.code = code
            self.severity = severity
            self.message = message
        }
    }

    /// One of the tool's checks; passed when it has no error.
    public struct Check: Sendable, Encodable {
        public var name: String
        public var findings: [Finding]
        public var passed: Bool { !findings.contains { $0.severity == .error } }

        private enum CodingKeys: String, CodingKey { case name, passed, findings }
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(passed, forKey: .passed)
            try container.encode(findings, forKey: .findings)
        }
    }

    /// The result as search would show it.
    public struct Preview: Sendable, Encodable {
        public var title: String?
        public var description: String?
        public var image: String?
        public var rating: String?
        public var price: String?
        public var deepLink: String?

        init(_ metadata: PageMetadata, universalLinkApps: [String]) {
            title = metadata.title?.value
            description = metadata.robots.nosnippet ? nil : metadata.description?.value
            image = metadata.image?.value
            for entity in metadata.entities {
                rating = rating ?? entity.properties["aggregateRating.ratingValue"] ?? (entity.type == "AggregateRating" ? entity.properties["ratingValue"] : nil)
                for offers in ["offers", "offers.0"] where price == nil {
                    if let amount = entity.properties["\(offers).price"] ?? entity.properties["\(offers).lowPrice"] {
                        price = [amount, entity.properties["\(offers).priceCurrency"]].compactMap { $0 }.joined(separator: " ")
                    }
                }
            }
            deepLink = metadata.deepLinks.first?.url ?? (universalLinkApps.isEmpty ? nil : metadata.identity?.absoluteString)
        }
    }

    public var url: URL
    public var finalURL: URL?
    public var statusCode: Int?
    public var associationURL: URL?
    /// The robots.txt group applied to Applebot (`applebot`, `googlebot`, `*`), if any.
    public var robotsGroup: String?
    /// Apps the association file hands this URL to.
    public var universalLinkApps: [String] = []
    public var checks: [Check] = []
    public var preview: Preview?
    public var entities: [SchemaEntity] = []
    /// Where values came from (`title from og:title`).
    public var notes: [String] = []

    public init(url: URL) { self.url = url }

    /// Every finding of every check.
    public var findings: [Finding] { checks.flatMap(\.findings) }
    public var passedCount: Int { checks.filter(\.passed).count }
}
