/// Bounds on what a client may ask of the service; past them a request gets
/// a JSON error (`queryTooLong`, `bodyTooLarge`, `invalidRequest`), never work.
///
/// ```swift
/// var limits = ServiceLimits()
/// limits.maximumQueryBytes = 256
/// ```
public struct ServiceLimits: Sendable, Hashable {
    /// The longest search text, in UTF-8 bytes.
    public var maximumQueryBytes = 1_024
    /// The largest request body, in bytes.
    public var maximumBodyBytes = 64 * 1_024
    /// The largest message a live-search client may send, in bytes.
    public var maximumMessageBytes = 4 * 1_024
    /// The most results per app a client may ask for.
    public var maximumResultsPerApp = 25
    /// The most web results a client may ask for.
    public var maximumWebResults = 10
    /// The most results one impressions report may name.
    public var maximumImpressionsPerReport = 500

    public init() {}
}
