/// The documented limits of a store. Going over one refuses the item (or
/// the call) with ``SpotlightIndexErrorCode/limitExceeded`` and a message
/// naming the item and the limit; nothing already stored is touched.
///
/// ```swift
/// var options = StoreOptions()
/// options.limits.maxItemsPerStore = 1_000      // e.g. in a test
/// let store = try SpotlightStore.inMemory(options: options)
/// ```
public struct StoreLimits: Sendable, Hashable {
    /// Longest `uniqueIdentifier` or `domainIdentifier`, in UTF-8 bytes. Default 1,024.
    public var maxIdentifierBytes = 1_024
    /// Longest attribute name, in UTF-8 bytes. Default 128.
    public var maxAttributeNameBytes = 128
    /// Most attributes on one item. Default 512.
    public var maxAttributesPerItem = 512
    /// Largest single attribute value (a string, the sum of an array's
    /// strings, a data value), in bytes. Default 4 MiB.
    public var maxAttributeBytes = 4 * 1_024 * 1_024
    /// Most elements in an array value. Default 10,000.
    public var maxArrayElements = 10_000
    /// Largest item, all attributes encoded, in bytes. Default 8 MiB.
    public var maxItemBytes = 8 * 1_024 * 1_024
    /// Most items in one store. Default 10,000,000.
    public var maxItemsPerStore = 10_000_000
    /// Largest client state of a batch, in bytes: 250, as Apple's.
    public var maxClientStateBytes = 250

    public init() {}
}
