import Foundation
import SpotlightIndex
import SpotlightSystem
import Synchronization

/// Answers of ``SystemSearch`` kept for the same question while nothing they
/// were made from changed: as the user types, the same prefixes come back
/// (a backspace, the page and the desktop's search box, several typists).
///
/// An answer is reused only when the registered apps, each app's indexes,
/// each store's file (``StoreFileIdentity``) and each store's change counter
/// (``StoreChangeObserver``: any commit by any process) are what they were
/// when the answer was made, and for at most ``lifetime`` (expiry dates and
/// the decay of recency and engagement follow the clock). Answers that named
/// a problem (a store that could not be read) are never kept.
final class SearchAnswers: Sendable {
    struct Question: Hashable {
        var text: String
        var resultsPerApp: Int
        var webResults: Int
        var near: [Double]
    }

    /// What an answer was made from.
    struct Sources: Hashable {
        var apps: [AppRegistration]
        var stores: [String: StoreState]
    }

    struct StoreState: Hashable {
        var identity: StoreFileIdentity?
        var version: Int
    }

    /// How long an answer may be reused at most.
    let lifetime: Duration
    /// How many answers are kept: at least what a lifetime of searches at
    /// the load the service is made for brings (16 typists at 10 keystrokes
    /// a second for 10 s: 1,600), or a question asked again within its
    /// lifetime finds its answer gone.
    let capacity: Int
    /// How many questions were answered from memory (for tests and metrics).
    let reused = Atomic<Int>(0)
    typealias Entry = (sources: Sources, made: ContinuousClock.Instant, answer: SystemSearchResults)
    private let kept = Mutex<[Question: Entry]>([:])
    private let observers = Mutex<[String: (identity: StoreFileIdentity?, observer: StoreChangeObserver)]>([:])

    init(lifetime: Duration = .seconds(10), capacity: Int = 4_096) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    func answer(_ question: Question, from sources: Sources) -> SystemSearchResults? {
        let (answer, dropped) = kept.withLock { kept -> (SystemSearchResults?, Entry?) in
            guard let entry = kept[question] else { return (nil, nil) }
            guard entry.sources == sources, ContinuousClock.now - entry.made < lifetime else {
                return (nil, kept.removeValue(forKey: question))
            }
            reused.add(1, ordering: .relaxed)
            return (entry.answer, nil)
        }
        // Released after the lock, not under it.
        withExtendedLifetime(dropped) {}
        return answer
    }

    func keep(_ answer: SystemSearchResults, for question: Question, from sources: Sources, madeAt made: ContinuousClock.Instant) {
        guard answer.problems.isEmpty, answer.unavailableApps.isEmpty else { return }
        // Full, the answers past their lifetime go, then the oldest until it
        // is three quarters full: a question asked again is most often asked
        // soon (emptying the set instead, under a load that fills it within a
        // lifetime, dropped every answer before its second asking). A
        // thousand answers' items take tens of milliseconds to free (a
        // keystroke that emptied the set took 86 ms instead of ~5, every
        // search waiting on the lock meanwhile), so they are freed on a
        // background queue, after the lock.
        let dropped = kept.withLock { kept -> [Question: Entry]? in
            var dropped: [Question: Entry]?
            if kept.count >= capacity {
                let now = ContinuousClock.now
                var fresh = kept.filter { now - $0.value.made < lifetime }
                let room = capacity * 3 / 4
                if fresh.count > room {
                    let newest = fresh.sorted { $0.value.made > $1.value.made }.prefix(room)
                    fresh = Dictionary(uniqueKeysWithValues: newest.map { ($0.key, $0.value) })
                }
                dropped = kept
                kept = fresh
            }
            kept[question] = (sources, made, answer)
            return dropped
        }
        if let dropped { DispatchQueue.global(qos: .utility).async { withExtendedLifetime(dropped) {} } }
    }

    /// How many answers are kept now.
    var count: Int { kept.withLock { $0.count } }

    /// The change counter of a store, through an observer kept for its file.
    func state(of store: SpotlightStore, key: String, identity: StoreFileIdentity?) throws -> StoreState {
        let observer: StoreChangeObserver
        if let kept = observers.withLock({ $0[key] }), kept.identity == identity {
            observer = kept.observer
        } else {
            observer = try StoreChangeObserver(store: store)
            observers.withLock { $0[key] = (identity, observer) }
        }
        return StoreState(identity: identity, version: try observer.version())
    }
}
