public import Foundation
import WebMarkup

/// Checks one page the way Apple's App Search API Validation Tool did: fetch it
/// as Applebot (robots.txt first), read its markup, fetch and check the site's
/// apple-app-site-association, and report each check as passed or not, with a
/// stable code per finding and a preview of the result.
///
/// ```swift
/// let report = await SiteValidator().validate(URL(string: "https://shop.example.com/pear")!)
/// print(report.passedCount, "of", report.checks.count, "checks passed")
/// for finding in report.findings { print(finding.code, finding.message) }
/// ```
public struct SiteValidator: Sendable {
    public var fetcher: WebFetcher.Configuration
    /// What fetches, when not a ``WebFetcher`` made for each validation.
    private let client: (any WebFetching)?

    /// - Parameters:
    ///   - fetcher: how the ``WebFetcher`` made for each validation fetches.
    ///   - client: what fetches instead (kept open by its owner; `fetcher` is then unused).
    public init(fetcher: WebFetcher.Configuration = WebFetcher.Configuration(), client: (any WebFetching)? = nil) {
        self.fetcher = fetcher
        self.client = client
    }

    /// Validates `url`. Never throws: what could not be fetched is a finding.
    public func validate(_ url: URL) async -> ValidationReport {
        if let client { return await validate(url, with: client) }
        let client = WebFetcher(configuration: fetcher)
        let report = await validate(url, with: client)
        try? await client.shutdown()
        return report
    }

    private func validate(_ url: URL, with client: any WebFetching) async -> ValidationReport {
        var report = ValidationReport(url: url)
        var fetch = ValidationReport.Check(name: "Fetch", findings: [])
        guard let origin = Site.origin(url) else {
            fetch.findings.append(.init("unsupported_url", .error, "\(url.absoluteString) is not an http or https address"))
            report.checks = [fetch]
            return report
        }

        // robots.txt, as Applebot reads it.
        let (robots, problem) = await client.robots(origin: origin)
        if let problem {
            fetch.findings.append(.init("robots_unreachable", .error, problem))
        } else {
            report.robotsGroup = robots.selectedGroup(userAgent: "Applebot")
        }
        if !robots.isAllowed(url) {
            fetch.findings.append(.init("robots_blocked", .error,
                "robots.txt disallows \(url.path.isEmpty ? "/" : url.path) for Applebot (group \(report.robotsGroup.map { "'\($0)'" } ?? "none"))"))
        }

        // The page.
        var metadata: PageMetadata?
        do {
            let response = try await client.fetch(url)
            report.finalURL = response.url
            report.statusCode = response.statusCode
            if !response.redirects.isEmpty {
                fetch.findings.append(.init("page_redirect", .warning, "\(url.absoluteString) redirects to \(response.url.absoluteString) (\(response.redirects.count) hop(s))"))
            }
            if response.statusCode != 200 {
                fetch.findings.append(.init("page_status", .error, "\(url.host ?? "") is returning \(response.statusCode). Please check your url and try again."))
            } else {
                let document = try HTMLDocument.parse(response.body, url: response.url, charset: response.charset)
                metadata = PageMetadata(document)
            }
        } catch {
            fetch.findings.append(.init("page_unreachable", .error, "\(error)"))
        }
        if let metadata, metadata.robots.noindex {
            fetch.findings.append(.init("noindex", .error, "the page's robots meta says noindex: Applebot will not index it"))
        }
        report.checks.append(fetch)

        // The association file (never through a redirect).
        var association: AppSiteAssociation?
        var universal = ValidationReport.Check(name: "Universal links", findings: [])
        var found = false
        for path in [AppSiteAssociation.wellKnownPath, AppSiteAssociation.legacyPath] {
            guard let aasaURL = URL(string: origin + path) else { continue }
            do {
                let response = try await client.fetch(aasaURL, maximumRedirects: 0, maximumBytes: 1 << 20)
                guard response.statusCode != 404 else { continue }
                found = true
                let fetchInfo = AssociationFetch(statusCode: response.statusCode, contentType: response.contentType, redirects: response.redirects,
                                                 finalURL: response.url, byteCount: response.body.count)
                universal.findings += AssociationValidator.validate(data: response.body, fetch: fetchInfo, sampleURLs: [url])
                    .map { ValidationReport.Finding($0.code, $0.severity == .error ? .error : .warning, $0.message) }
                if path == AppSiteAssociation.legacyPath {
                    universal.findings.append(.init("aasa_legacy_location", .warning, "the association file is only at \(path); serve it at \(AppSiteAssociation.wellKnownPath)"))
                }
                association = try? AppSiteAssociation(data: response.body)
                report.associationURL = aasaURL
                break
            } catch let error as CrawlError where error.code == .tooManyRedirects {
                found = true
                universal.findings.append(.init("aasa_redirect", .error, "\(error.message): Apple fetches the association file without following redirects"))
                break
            } catch {
                continue
            }
        }
        if !found {
            universal.findings.append(.init("aasa_unreachable", .error,
                "Could not extract required information for application links: no apple-app-site-association at \(origin)\(AppSiteAssociation.wellKnownPath)"))
        }
        if let association {
            report.universalLinkApps = association.applicationIdentifiers.filter { association.match(url, applicationIdentifier: $0) == .match }
        }

        guard let metadata else {
            report.checks.append(universal)
            return report
        }
        report.preview = .init(metadata, universalLinkApps: report.universalLinkApps)

        var title = ValidationReport.Check(name: "Title", findings: [])
        if let value = metadata.title { report.notes.append("title from \(value.source)") } else {
            title.findings.append(.init("missing_title", .error, "no title: add <title> or og:title"))
        }
        var description = ValidationReport.Check(name: "Description", findings: [])
        if let value = metadata.description { report.notes.append("description from \(value.source)") } else {
            description.findings.append(.init("missing_description", .error, "no description: add <meta name=\"description\"> or og:description"))
        }
        if metadata.robots.nosnippet {
            description.findings.append(.init("nosnippet", .warning, "robots meta says nosnippet: the description will not be shown"))
        }
        var image = ValidationReport.Check(name: "Image", findings: [])
        if metadata.image == nil {
            image.findings.append(.init("missing_image", .warning, "no image: og:image is strongly recommended (the result's thumbnail)"))
        }
        var links = ValidationReport.Check(name: "Link to application", findings: [])
        if let banner = metadata.smartAppBanner {
            for problem in banner.problems {
                links.findings.append(.init(problem, problem == "banner_without_app_id" ? .error : .warning, Self.bannerMessage(problem)))
            }
        }
        if metadata.deepLinks.isEmpty && report.universalLinkApps.isEmpty {
            links.findings.append(.init("no_deep_link", .error,
                "no deep link: add a Smart App Banner with app-argument, App Links (al:ios:url) or a Twitter app card, or a universal link"))
        }
        if metadata.canonicalMismatch, let canonical = metadata.canonical, let ogURL = metadata.openGraphURL {
            links.findings.append(.init("canonical_og_url_mismatch", .warning, "canonical \(canonical.value) and og:url \(ogURL.value) differ"))
        }
        if let canonical = metadata.canonical.flatMap({ URL(string: $0.value) }), Site.key(canonical) != Site.key(url) {
            links.findings.append(.init("canonical_other_host", .warning, "the canonical URL \(canonical.absoluteString) is on another host"))
        }
        var structured = ValidationReport.Check(name: "Structured data", findings: [])
        for problem in metadata.structuredDataProblems {
            structured.findings.append(.init(problem.code, .error, problem.message))
        }
        if let mismatch = Self.priceMismatch(metadata) {
            structured.findings.append(.init("price_mismatch_og_vs_structured", .warning, mismatch))
        }
        if metadata.entities.isEmpty {
            structured.findings.append(.init("no_structured_data", .warning, "no schema.org entities (rating, price, organization, recipe…) to enrich the result"))
        }
        report.entities = metadata.entities
        report.checks += [title, description, image, links, universal, structured]
        return report
    }

    static func bannerMessage(_ code: String) -> String {
        switch code {
        case "banner_without_app_id": "the Smart App Banner has no app-id (the numeric App Store id)"
        case "banner_app_id_not_numeric": "the Smart App Banner's app-id must be the numeric App Store id, not a bundle id"
        case "banner_without_app_argument": "the Smart App Banner has no app-argument: it promotes the app but gives Apple no deep link to index"
        case "banner_comma_in_argument": "the Smart App Banner's app-argument contains a comma, which the format cannot express reliably"
        case "banner_unknown_key": "the Smart App Banner has a key other than app-id, app-argument, affiliate-data, app-clip-bundle-id, app-clip-display"
        default: code
        }
    }

    /// `og:price:amount` / `product:price:amount` against a structured `offers.price`.
    static func priceMismatch(_ metadata: PageMetadata) -> String? {
        guard let ogPrice = metadata.openGraph.first(where: { ["og:price:amount", "product:price:amount"].contains($0.property) })?.content,
              let ogValue = Double(ogPrice) else { return nil }
        for entity in metadata.entities {
            for (key, value) in entity.properties where key == "offers.price" || (key.hasPrefix("offers.") && key.hasSuffix(".price")) {
                if let structured = Double(value), abs(structured - ogValue) > 0.005 {
                    return "Open Graph says the price is \(ogPrice) but the \(entity.type) entity's \(key) is \(value)"
                }
            }
        }
        return nil
    }
}
