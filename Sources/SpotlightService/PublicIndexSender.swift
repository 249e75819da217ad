public import Foundation
import Logging
import PublicIndexProtocol
public import SpotlightIndex
import SpotlightSystem

/// Delivers the apps' outboxes of public donations to the public index,
/// when the device opted in (``PublicIndexSettings``).
///
/// ```swift
/// let report = try await PublicIndexSender().deliver()
/// print(report.counted, "counted,", report.contentSent, "contents sent,", report.waiting, "waiting")
/// ```
///
/// Nothing is lost and nothing counts twice: a donation leaves its outbox
/// only once the index answered for it (counted, a duplicate of one it
/// has, or asked for and sent its content); one without an answer (no
/// connection, 5xx, its shard down, 429) waits, retried later with the same
/// id, which the index counts once. Only a donation the index refuses as
/// malformed is dropped, and reported.
public struct PublicIndexSender: Sendable {
    public struct Report: Sendable, Hashable, Codable {
        /// Donations the index answered for (counted, duplicates, already public).
        public var counted = 0
        /// Contents sent because the index asked (past its threshold).
        public var contentSent = 0
        /// Donations kept for a later try.
        public var deferred = 0
        /// Donations the index refused as malformed, dropped.
        public var dropped: [String] = []
        /// Donations still waiting in every outbox afterwards.
        public var waiting = 0
        /// Why deliveries were deferred, if they were.
        public var problems: [String] = []
    }

    public let location: StoreLocation
    let logger = Logger(label: "openspotlight.public-sender")

    public init(location: StoreLocation = .automatic) {
        self.location = location
    }

    /// The apps with an activity store under the root.
    func apps() -> [String] {
        guard let root = location.rootDirectory,
              let names = try? FileManager.default.contentsOfDirectory(atPath: root.path) else { return [] }
        return names.filter { !$0.hasPrefix(".") && UserActivityStore.exists(bundleIdentifier: $0, location: location) }.sorted()
    }

    /// Sends every due donation of every app, a batch at a time.
    /// - Parameter client: defaults to the configured service.
    /// - Throws: ``SystemSearchError`` `.actionFailed` when public indexing is off or has no service URL.
    public func deliver(client: PublicIndexClient? = nil, now: Date = Date()) async throws -> Report {
        let settings = PublicIndexSettings.load(location: location)
        guard settings.isEnabled, let url = settings.serviceURL, let tokenText = settings.token, let token = try? DeviceToken(tokenText) else {
            throw SystemSearchError(.actionFailed, "public indexing is off on this device; turn it on with `spotlight public device --enable URL`")
        }
        let client = client ?? PublicIndexClient(serviceURL: url)
        var report = Report()
        for app in apps() {
            let store = try UserActivityStore(bundleIdentifier: app, location: location)
            var stalled = false
            while !stalled {
                let due = try store.pendingPublicDonations(dueAt: now, limit: DonationBatch.maximumCount)
                if due.isEmpty { break }
                stalled = try await deliver(due, app: app, token: token, client: client, store: store, now: now, report: &report)
            }
            report.waiting += try store.publicDonationCount()
        }
        return report
    }

    /// One batch. Returns true when the app's delivery should stop for now.
    func deliver(_ due: [PendingPublicDonation], app: String, token: DeviceToken, client: PublicIndexClient, store: UserActivityStore,
                 now: Date, report: inout Report) async throws -> Bool {
        var answered: [UUID] = []
        var wanted: [PendingPublicDonation] = due.filter(\.contentWanted)
        let toDonate = due.filter { !$0.contentWanted }
        var donations: [Donation] = []
        for pending in toDonate {
            guard let hash = try? ActivityHash(hex: pending.hash) else {
                report.dropped.append("\(app): \(pending.id.uuidString): not a SHA-256")
                answered.append(pending.id)
                continue
            }
            donations.append(Donation(id: pending.id, app: app, hash: hash))
        }
        if !donations.isEmpty {
            do {
                let response = try await client.donate(DonationBatch(token: token, donations: donations))
                var deferred: [UUID] = []
                for outcome in response.outcomes {
                    switch outcome.status {
                    case .counted, .duplicate, .indexed:
                        answered.append(outcome.id)
                        report.counted += 1
                    case .wanted:
                        report.counted += 1
                        try store.markPublicContentWanted(outcome.id)
                        if let pending = toDonate.first(where: { $0.id == outcome.id }) { wanted.append(pending) }
                    case .deferred:
                        deferred.append(outcome.id)
                    }
                }
                if !deferred.isEmpty {
                    try store.deferPublicDonations(deferred, until: now.addingTimeInterval(Self.backoff(attempts: 0)))
                    report.deferred += deferred.count
                    report.problems.append("\(deferred.count) donations of \(app) wait for a shard that did not answer")
                }
            } catch let failure as PublicIndexClient.Failure where failure.isTransient {
                let attempts = toDonate.map(\.attempts).max() ?? 0
                try store.deferPublicDonations(toDonate.map(\.id), until: now.addingTimeInterval(failure.retryAfter ?? Self.backoff(attempts: attempts)))
                report.deferred += toDonate.count
                report.problems.append("\(app): \(failure)")
                try store.removePublicDonations(answered)
                return true
            } catch let failure as PublicIndexClient.Failure {
                // Refused whole (400, 413…): send them one by one, so one bad donation cannot hold back the others.
                guard donations.count > 1 else {
                    report.dropped.append("\(app): \(donations.first?.id.uuidString ?? ""): \(failure)")
                    answered += donations.map(\.id)
                    try store.removePublicDonations(answered)
                    return false
                }
                for single in toDonate {
                    _ = try await deliver([single], app: app, token: token, client: client, store: store, now: now, report: &report)
                }
                try store.removePublicDonations(answered)
                return false
            }
        }
        // One content per hash: the other donations of it are answered by the same submission.
        var sameHash: [String: [UUID]] = [:]
        for pending in wanted { sameHash[pending.hash, default: []].append(pending.id) }
        for pending in wanted where sameHash[pending.hash]?.first == pending.id {
            do {
                let content = try PublicIndexJSON.decoder().decode(PublicActivityContent.self, from: pending.content)
                _ = try await client.submitContent(content, for: try ActivityHash(hex: pending.hash), token: token)
                report.contentSent += 1
                answered += sameHash[pending.hash] ?? [pending.id]
            } catch let failure as PublicIndexClient.Failure where failure.isTransient {
                try store.deferPublicDonations([pending.id], until: now.addingTimeInterval(failure.retryAfter ?? Self.backoff(attempts: pending.attempts)))
                report.deferred += 1
                report.problems.append("\(app): content: \(failure)")
            } catch {
                // 409 (another device sent it first, or it is not wanted), 422, unreadable: nothing more to send.
                logger.info("content of \(pending.hash) not sent: \(error)")
                answered.append(pending.id)
            }
        }
        try store.removePublicDonations(answered)
        return false
    }

    /// Seconds before trying again after `attempts` failures: 30 s doubling to 6 h.
    static func backoff(attempts: Int) -> TimeInterval {
        min(6 * 3_600, 30 * pow(2, Double(min(attempts, 12))))
    }
}
