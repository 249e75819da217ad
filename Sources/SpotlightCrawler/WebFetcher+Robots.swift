import Foundation
import WebMarkup

extension WebFetching {
    /// An origin's robots.txt as Applebot applies it, and why it forbids
    /// everything when it could not be read.
    ///
    /// RFC 9309: a 4xx allows everything; a 5xx (or 429) or no answer forbids
    /// everything until robots.txt answers. A file over 512 KiB is not read and
    /// allows everything.
    ///
    /// ```swift
    /// let (robots, problem) = await fetcher.robots(origin: "https://shop.example.com")
    /// ```
    func robots(origin: String, deadline: Date? = nil) async -> (robots: RobotsTxt, problem: String?) {
        guard let url = URL(string: origin + "/robots.txt") else { return (.disallowAll, "\(origin) is not an address") }
        do {
            let response = try await fetch(url, maximumBytes: 512 << 10, deadline: deadline)
            let robots = RobotsTxt.forStatus(response.statusCode) ?? RobotsTxt(data: response.body)
            if response.statusCode >= 500 || response.statusCode == 429 {
                return (robots, "\(url.absoluteString) answered HTTP \(response.statusCode): nothing may be crawled until it answers")
            }
            return (robots, nil)
        } catch let error as CrawlError where error.code == .tooLarge {
            return (.allowAll, nil)
        } catch {
            return (.disallowAll, "\(error); nothing may be crawled until robots.txt answers")
        }
    }
}
