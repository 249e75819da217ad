public import Foundation

/// A device's anonymous token: 32 random bytes, as 64 hex digits. It names
/// no person and no device; the service keeps only keyed hashes of it.
///
/// ```swift
/// let token = DeviceToken.random()
/// try DeviceToken(token.text) == token   // true
/// ```
public struct DeviceToken: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The 64 hex digits.
    public let text: String

    /// A new token from the system's random number generator.
    public static func random() -> DeviceToken {
        var generator = SystemRandomNumberGenerator()
        return DeviceToken(checked: HexBytes.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }))
    }

    /// - Throws: ``PublicIndexProtocolError`` `.invalidToken` unless 64 hex digits.
    public init(_ text: String) throws {
        guard HexBytes.decode(text, count: 32) != nil else {
            throw PublicIndexProtocolError(.invalidToken, "a device token is 64 hexadecimal digits")
        }
        self.text = text.lowercased()
    }

    init(checked: String) { text = checked }

    /// The token's bytes (what the service keys its HMAC with).
    public var bytes: [UInt8] { HexBytes.decode(text, count: 32) ?? [] }

    /// Never the token itself, so that it does not end up in logs.
    public var description: String { "DeviceToken(…)" }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { try self.init(text) } catch let error as PublicIndexProtocolError {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

/// One view of an eligible activity, as a device donates it: the hash of its
/// public form and its app. `id` is random per donation; the service counts
/// each id once, so a delivery retried after a lost answer changes nothing.
public struct Donation: Sendable, Hashable, Codable {
    public var id: UUID
    public var app: String
    public var hash: ActivityHash

    public init(id: UUID = UUID(), app: String, hash: ActivityHash) {
        self.id = id
        self.app = app
        self.hash = hash
    }
}

/// What `POST /v1/donations` takes: one device's token and up to
/// ``maximumCount`` donations.
///
/// ```json
/// {"token": "<64 hex>", "donations": [{"id": "…", "app": "com.example.recipes", "hash": "<64 hex>"}]}
/// ```
public struct DonationBatch: Sendable, Hashable, Codable {
    public static let maximumCount = 100

    public var token: DeviceToken
    public var donations: [Donation]

    public init(token: DeviceToken, donations: [Donation]) {
        self.token = token
        self.donations = donations
    }

    /// - Throws: ``PublicIndexProtocolError`` `.invalidBatch` (empty, too long, an id twice)
    ///   or `.invalidApp`, saying which donation.
    public func validate() throws {
        guard !donations.isEmpty, donations.count <= Self.maximumCount else {
            throw PublicIndexProtocolError(.invalidBatch, "a batch holds 1 to \(Self.maximumCount) donations, not \(donations.count)")
        }
        var ids = Set<UUID>()
        for (index, donation) in donations.enumerated() {
            guard ids.insert(donation.id).inserted else {
                throw PublicIndexProtocolError(.invalidBatch, "donation \(index) repeats the id \(donation.id.uuidString)")
            }
            do { try BundleIdentifier.validate(donation.app) } catch let error as PublicIndexProtocolError {
                throw PublicIndexProtocolError(error.code, "donation \(index): \(error.message)")
            }
        }
    }
}

/// What the service did with one donation.
public enum DonationStatus: String, Sendable, Hashable, Codable {
    /// Counted; below the threshold (or this token had counted already).
    case counted
    /// This donation id was seen before: nothing changed. (A repeat of the
    /// donation whose hash still wants its content is answered ``wanted``.)
    case duplicate
    /// The hash reached the threshold and its content is not stored yet:
    /// send the public content (`PUT /v1/activities/<hash>`).
    case wanted
    /// The content is public already; the donation counted for its popularity.
    case indexed
    /// The shard holding it did not answer: nothing was counted; send it again later.
    case deferred
}

/// The answer for one donation of a batch, in the batch's order.
public struct DonationOutcome: Sendable, Hashable, Codable {
    public var id: UUID
    public var status: DonationStatus

    public init(id: UUID, status: DonationStatus) {
        self.id = id
        self.status = status
    }
}

/// The answer to `POST /v1/donations`.
public struct DonationBatchResponse: Sendable, Hashable, Codable {
    public var outcomes: [DonationOutcome]

    public init(outcomes: [DonationOutcome]) { self.outcomes = outcomes }
}

/// What `PUT /v1/activities/<hash>` takes: the token (for flood limits) and the content.
public struct ContentSubmission: Sendable, Hashable, Codable {
    public var token: DeviceToken
    public var content: PublicActivityContent

    public init(token: DeviceToken, content: PublicActivityContent) {
        self.token = token
        self.content = content
    }
}

/// What the service did with submitted content.
public enum ContentStatus: String, Sendable, Hashable, Codable {
    /// Checked against its hash and stored: searchable by everyone.
    case stored
    /// Stored already from an earlier submission: nothing changed.
    case alreadyStored
}

/// The answer to `PUT /v1/activities/<hash>`.
public struct ContentResponse: Sendable, Hashable, Codable {
    public var status: ContentStatus
    public init(status: ContentStatus) { self.status = status }
}

/// A 4xx or 5xx answer's body: a stable code and a sentence.
public struct ErrorResponse: Sendable, Hashable, Codable {
    public var error: String
    public var message: String
    public init(error: String, message: String) {
        self.error = error
        self.message = message
    }
}
