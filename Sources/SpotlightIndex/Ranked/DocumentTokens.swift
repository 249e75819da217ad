import Foundation

/// One item's text as the ranked index stores it: each distinct token once,
/// with its hash, its frequency weighted by column (in sixteenths, as
/// postings hold it) and the columns that hold it; and the document's
/// length (token occurrences in all columns, BM25's length).
///
/// Made off the write lock, as items are prepared (``ItemValidator``), so
/// that the writer only interns ready tokens into the segment it builds
/// (``SegmentContents``).
///
/// ```swift
/// let tokens = DocumentTokens(attributes: ["title": .string("Pear tart")], weights: .standard)
/// tokens.count    // 2: "pear" and "tart", each in the title column
/// ```
struct DocumentTokens: Sendable {
    /// The distinct tokens' bytes, end to end.
    private(set) var bytes: [UInt8] = []
    private(set) var tokens: [Token] = []
    /// Token occurrences in all columns.
    private(set) var length: UInt32 = 0

    struct Token: Sendable {
        var hash: UInt64
        var start: UInt32
        var count: UInt32
        /// Σ column weight × occurrences, in sixteenths (saturating).
        var frequency: UInt32
        /// Bits of ``TextColumns/bit(of:)``.
        var columns: UInt8
    }

    var count: Int { tokens.count }

    init() {}

    /// The tokens of every searched text attribute.
    init(attributes: [String: AttributeValue], weights: ColumnWeights) {
        var builder = Builder(weights: weights)
        builder.add(attributes)
        self = builder.finish()
    }

    /// The bytes of token `index`.
    func withToken<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        let token = tokens[index]
        return bytes.withUnsafeBufferPointer { all in
            body(UnsafeBufferPointer(rebasing: all[Int(token.start)..<Int(token.start + token.count)]))
        }
    }

    /// The four column weights in sixteenths (title, keywords, description, other).
    struct ColumnWeights: Sendable, Hashable {
        var values: (UInt32, UInt32, UInt32, UInt32)

        init(_ weights: RankingWeights) {
            func sixteenths(_ weight: Double) -> UInt32 { UInt32(max(0, min(4_096, (weight * SegmentFormat.tfScale).rounded()))) }
            values = (sixteenths(weights.titleWeight), sixteenths(weights.keywordsWeight),
                      sixteenths(weights.descriptionWeight), sixteenths(weights.otherTextWeight))
        }

        static let standard = ColumnWeights(RankingWeights())

        func weight(_ column: Int) -> UInt32 {
            switch column {
            case 0: values.0
            case 1: values.1
            case 2: values.2
            default: values.3
            }
        }

        static func == (a: Self, b: Self) -> Bool { a.values == b.values }
        func hash(into hasher: inout Hasher) {
            hasher.combine(values.0); hasher.combine(values.1); hasher.combine(values.2); hasher.combine(values.3)
        }
    }

    /// Collects tokens into a ``DocumentTokens``: an open-addressing table
    /// over the distinct tokens, reset in O(1) between documents by a
    /// generation stamp, so one builder serves a whole chunk of items.
    struct Builder: IndexTokenSink {
        let weights: ColumnWeights
        private var bytes: [UInt8] = []
        private var tokens: [Token] = []
        private var length: UInt32 = 0
        /// Slot → token index, live when `stamps[slot] == generation`.
        private var slots = [Int32](repeating: 0, count: 64)
        private var stamps = [UInt32](repeating: 0, count: 64)
        private var generation: UInt32 = 1
        private var weight: UInt32 = 0
        private var bit: UInt8 = 0

        init(weights: ColumnWeights) {
            self.weights = weights
            column = 3
            weight = weights.weight(3)
            bit = 8
        }

        /// The column (0 title, 1 keywords, 2 description, 3 other) the next tokens belong to.
        var column: Int {
            didSet {
                weight = weights.weight(column)
                bit = UInt8(1) << UInt8(column & 3)
            }
        }

        /// Adds the tokens of every searched text attribute, each to its column.
        mutating func add(_ attributes: [String: AttributeValue]) {
            for (name, value) in attributes {
                guard let column = TextColumns.column(of: name) else { continue }
                self.column = column
                switch value {
                case .string(let text): TextTokenizer.forEachIndexToken(of: text, into: &self)
                case .strings(let texts): for text in texts { TextTokenizer.forEachIndexToken(of: text, into: &self) }
                case .url(let url): TextTokenizer.forEachIndexToken(of: url.absoluteString, into: &self)
                default: continue
                }
            }
        }

        mutating func take(_ token: UnsafeBufferPointer<UInt8>) {
            length &+= 1
            let hash = TokenHash.of(token)
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: hash) & mask
            while stamps[slot] == generation {
                let index = Int(slots[slot])
                if tokens[index].hash == hash, equals(index, token) {
                    let (sum, overflow) = tokens[index].frequency.addingReportingOverflow(weight)
                    tokens[index].frequency = overflow ? .max : sum
                    tokens[index].columns |= bit
                    return
                }
                slot = (slot + 1) & mask
            }
            let index = tokens.count
            tokens.append(Token(hash: hash, start: UInt32(bytes.count), count: UInt32(token.count), frequency: weight, columns: bit))
            bytes.append(contentsOf: token)
            if tokens.count * 2 > slots.count {
                grow()   // places every token, this one too
                return
            }
            slots[slot] = Int32(index)
            stamps[slot] = generation
        }

        private func equals(_ index: Int, _ token: UnsafeBufferPointer<UInt8>) -> Bool {
            let stored = tokens[index]
            guard Int(stored.count) == token.count else { return false }
            guard let other = token.baseAddress, token.count > 0 else { return true }
            return bytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + Int(stored.start), other, token.count) == 0 }
        }

        /// Doubles the table and puts every token of this document back.
        private mutating func grow() {
            let size = slots.count * 2
            slots = [Int32](repeating: 0, count: size)
            stamps = [UInt32](repeating: 0, count: size)
            generation = 1
            let mask = size - 1
            for (index, token) in tokens.enumerated() {
                var slot = Int(truncatingIfNeeded: token.hash) & mask
                while stamps[slot] == generation { slot = (slot + 1) & mask }
                slots[slot] = Int32(index)
                stamps[slot] = generation
            }
        }

        /// The document so far; the builder starts the next one empty.
        mutating func finish() -> DocumentTokens {
            var out = DocumentTokens()
            out.bytes = bytes
            out.tokens = tokens
            out.length = length
            bytes.removeAll(keepingCapacity: true)
            tokens.removeAll(keepingCapacity: true)
            length = 0
            if generation == .max {
                for index in stamps.indices { stamps[index] = 0 }
                generation = 1
            } else {
                generation += 1
            }
            return out
        }
    }
}

/// A 64-bit hash of bytes, eight at a time; the same in every process (no
/// seed), for hash tables of tokens and identifiers.
enum TokenHash {
    @inline(__always)
    static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let count = bytes.count
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ (UInt64(truncatingIfNeeded: count) &* 0xFF51_AFD7_ED55_8CCD)
        guard let base = bytes.baseAddress, count > 0 else { return mix(hash) }
        var index = 0
        while index + 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            hash = mix(hash ^ word)
            index += 8
        }
        if index < count {
            var word: UInt64 = 0
            var shift: UInt64 = 0
            while index < count {
                word |= UInt64(base[index]) << shift
                shift += 8
                index += 1
            }
            hash = mix(hash ^ word)
        }
        return hash
    }

    /// The finalizer of SplitMix64.
    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
