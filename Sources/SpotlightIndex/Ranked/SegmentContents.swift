import Foundation

/// One item as the ranked index sees it: its rowid, its tokens by column
/// and the signals of its static factor.
struct RankedDocument: Sendable {
    var rowid: Int64
    var expires: Double
    var hint: Double
    var recency: Double?
    var engagement: Double
    var engagedAt: Double
    var columns: TextColumns
}

/// A segment before encoding: documents in doc-id order, terms in byte
/// order, postings and forward lists as flat arrays. Made from documents
/// (``init(documents:scoring:)``) or by merging segments (``SegmentMerger``).
struct SegmentContents {
    var rowids: [Int64] = []
    var expires: [Double] = []
    var hints: [Double] = []
    var recency: [Double] = []      // NaN: none
    var engagement: [Double] = []
    var engagedAt: [Double] = []
    var lengths: [UInt32] = []
    /// Document d's forward list is `forwardTerms[forwardStart[d]..<forwardStart[d+1]]` (ascending term ids).
    var forwardStart: [Int] = [0]
    var forwardTerms: [UInt32] = []
    var forwardFrequencies: [UInt32] = []
    /// Term t is `termBytes[termStart[t]..<termStart[t+1]]`.
    var termStart: [Int] = [0]
    var termBytes: [UInt8] = []
    /// Term t's postings are `postingDocs[postingStart[t]..<postingStart[t+1]]` (ascending).
    var postingStart: [Int] = [0]
    var postingDocs: [UInt32] = []
    var postingFrequencies: [UInt32] = []

    var documentCount: Int { rowids.count }
    var termCount: Int { termStart.count - 1 }

    init() {}

    /// Tokenized documents into a segment; documents are ordered by rowid.
    init(documents: [RankedDocument], scoring: RankedScoring) {
        let documents = documents.sorted { $0.rowid < $1.rowid }
        var ids: [Substring: Int] = [:]
        var firstSeen: [Substring] = []
        var perDocument: [[(term: Int, frequency: UInt32)]] = []
        perDocument.reserveCapacity(documents.count)
        var counts: [Int: (Int, Int, Int, Int)] = [:]
        for document in documents {
            counts.removeAll(keepingCapacity: true)
            var length = 0
            for (column, text) in [document.columns.title, document.columns.keywords,
                                   document.columns.description, document.columns.other].enumerated() {
                for token in text.split(separator: " ", omittingEmptySubsequences: true) {
                    length += 1
                    let id: Int
                    if let known = ids[token] { id = known } else {
                        id = firstSeen.count
                        ids[token] = id
                        firstSeen.append(token)
                    }
                    var count = counts[id] ?? (0, 0, 0, 0)
                    switch column {
                    case 0: count.0 += 1
                    case 1: count.1 += 1
                    case 2: count.2 += 1
                    default: count.3 += 1
                    }
                    counts[id] = count
                }
            }
            perDocument.append(counts.map { id, c in
                let tf = scoring.weightedFrequency(title: c.0, keywords: c.1, description: c.2, other: c.3)
                return (id, UInt32(min(Double(UInt32.max), max(1, (tf * SegmentFormat.tfScale).rounded()))))
            })
            rowids.append(document.rowid)
            expires.append(document.expires)
            hints.append(document.hint)
            recency.append(document.recency ?? .nan)
            engagement.append(document.engagement)
            engagedAt.append(document.engagedAt)
            lengths.append(UInt32(min(length, Int(UInt32.max))))
        }
        // Term ids in byte order of the tokens.
        let order = firstSeen.indices.sorted { firstSeen[$0].utf8.lexicographicallyPrecedes(firstSeen[$1].utf8) }
        var newID = [Int](repeating: 0, count: firstSeen.count)
        for (rank, old) in order.enumerated() {
            newID[old] = rank
            termBytes.append(contentsOf: firstSeen[old].utf8)
            termStart.append(termBytes.count)
        }
        var postings = [[(UInt32, UInt32)]](repeating: [], count: firstSeen.count)
        for (doc, terms) in perDocument.enumerated() {
            let sorted = terms.map { (newID[$0.term], $0.frequency) }.sorted { $0.0 < $1.0 }
            for (term, frequency) in sorted {
                forwardTerms.append(UInt32(term))
                forwardFrequencies.append(frequency)
                postings[term].append((UInt32(doc), frequency))
            }
            forwardStart.append(forwardTerms.count)
        }
        for list in postings {
            for (doc, frequency) in list {
                postingDocs.append(doc)
                postingFrequencies.append(frequency)
            }
            postingStart.append(postingDocs.count)
        }
    }
}
