import Foundation
import Synchronization

/// Items being checked, encoded and tokenized in the background, ahead of
/// their write: ``SpotlightStore/prepare(_:)`` starts the work at once and
/// ``SpotlightStore/index(prepared:)`` writes them.
///
/// An app (or the index object that queues its calls) with its next items
/// at hand prepares them while the store writes the current ones: on two
/// cores, one tokenizes and encodes while the other writes, flushes and
/// commits, instead of each call doing both in turn.
///
/// ```swift
/// var next = store.prepare(firstPage)
/// for page in remainingPages {
///     let current = next
///     next = store.prepare(page)         // starts now, in the background
///     try store.index(prepared: current)  // writes while `page` is prepared
/// }
/// try store.index(prepared: next)
/// ```
///
/// Nothing is stored until ``SpotlightStore/index(prepared:)`` is called;
/// each call that gets these items stores them (as calling
/// ``SpotlightStore/index(_:)`` with the same items again would).
/// Dropping a `PreparedItems` unwritten costs only its preparation.
public final class PreparedItems: Sendable {
    /// The items as given.
    let items: [SearchableItem]
    /// The store whose limits and weights prepared them.
    let store: SpotlightStore
    /// The preparation started for `store`, until a write takes it.
    private let pipeline: Mutex<ItemPreparation.Pipeline?>

    /// How many items were given.
    public var count: Int { items.count }

    init(_ items: [SearchableItem], store: SpotlightStore) {
        self.items = items
        self.store = store
        pipeline = Mutex(items.isEmpty ? nil : ItemPreparation.Pipeline(items, validator: store.validator))
    }

    /// The prepared chunks for a write to `target`: the preparation already
    /// started when `target` is the store it was made for and no write took
    /// it yet, otherwise a new one with `target`'s limits.
    func chunks(for target: SpotlightStore) -> ItemPreparation.Pipeline {
        if target === store, let started = pipeline.withLock({ pipeline -> ItemPreparation.Pipeline? in
            defer { pipeline = nil }
            return pipeline
        }) {
            return started
        }
        return ItemPreparation.Pipeline(items, validator: target.validator)
    }
}

extension SpotlightStore {
    /// Starts checking, encoding and tokenizing `items` in the background,
    /// for a later ``index(prepared:)``: see ``PreparedItems``.
    ///
    /// ```swift
    /// let prepared = store.prepare(items)   // returns at once
    /// try store.index(earlierItems)         // meanwhile `items` are prepared
    /// let report = try store.index(prepared: prepared)
    /// ```
    public func prepare(_ items: [SearchableItem]) -> PreparedItems {
        PreparedItems(items, store: self)
    }
}
