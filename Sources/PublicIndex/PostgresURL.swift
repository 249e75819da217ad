import Foundation
public import PostgresNIO

/// Where a PostgreSQL server is: `postgres://user:password@host:port/database`.
///
/// ```swift
/// let url = try PostgresURL("postgres://spotlight:secret@127.0.0.1:5432/public_index")
/// print(url.address)   // 127.0.0.1:5432/public_index — never the password
/// ```
public struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String

    public init(host: String, port: Int, user: String, password: String?, database: String) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
    }

    /// Parses `postgres://` or `postgresql://` URLs (percent-encoded user and password).
    /// - Throws: ``PublicIndexError`` `.configuration` naming what is missing.
    public init(_ text: String) throws {
        guard let parts = URLComponents(string: text), let scheme = parts.scheme?.lowercased(),
              scheme == "postgres" || scheme == "postgresql" else {
            throw PublicIndexError(.configuration, "\(text.debugDescription) is not a postgres:// URL (postgres://user:password@host:port/database)")
        }
        guard let host = parts.host, !host.isEmpty else {
            throw PublicIndexError(.configuration, "the PostgreSQL URL has no host")
        }
        guard let user = parts.percentEncodedUser?.removingPercentEncoding, !user.isEmpty else {
            throw PublicIndexError(.configuration, "the PostgreSQL URL has no user (postgres://user@host/database)")
        }
        let database = String(parts.path.drop(while: { $0 == "/" }))
        self.init(host: host, port: parts.port ?? 5432, user: user,
                  password: parts.percentEncodedPassword?.removingPercentEncoding,
                  database: database.isEmpty ? user : database)
    }

    /// `host:port/database`: safe to print and log.
    public var address: String { "\(host):\(port)/\(database)" }

    /// The URL without the password.
    public var description: String { "postgres://\(user)@\(address)" }

    /// The URL with its password, percent-encoded.
    public var fullText: String {
        var parts = URLComponents()
        parts.scheme = "postgres"
        parts.user = user
        parts.password = password
        parts.host = host
        parts.port = port
        parts.path = "/" + database
        return parts.string ?? description
    }

    /// A client configuration for postgres-nio (no TLS on loopback, TLS preferred elsewhere).
    public func clientConfiguration(maximumConnections: Int) -> PostgresClient.Configuration {
        let loopback = host == "127.0.0.1" || host == "localhost" || host == "::1"
        var configuration = PostgresClient.Configuration(host: host, port: port, username: user, password: password, database: database,
                                                         tls: loopback ? .disable : .prefer(.makeClientConfiguration()))
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectTimeout = .seconds(5)
        // Nothing waits forever: a statement stuck on a shard that stopped answering is cancelled,
        // and the caller hears "try again later" (a device keeps its donation).
        configuration.options.additionalStartupParameters = [("statement_timeout", "15s"), ("idle_in_transaction_session_timeout", "60s")]
        return configuration
    }
}
