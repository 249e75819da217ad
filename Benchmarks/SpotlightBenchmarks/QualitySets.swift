import BenchmarkPhases
import Foundation

/// What a quality query tests.
enum QualityKind: String, CaseIterable, Codable, Sendable {
    /// The first 2–6 characters of a package's name.
    case prefix
    /// A package's name with one typo in one of its words.
    case typo
    /// Two words of a package's summary, in order.
    case summary
    /// The first 2 or 3 characters of a package the user opened three
    /// times among ~200 opened packages (only the engine keeps a history).
    case history
}

/// One query and the package it should find.
struct QualityQuery: Codable, Sendable {
    var kind: QualityKind
    var text: String
    var target: String
    /// For `history`: which trial's history holds it.
    var trial: Int?
}

/// A user's history for one `history` trial: packages opened, with how
/// long before the trial's time each opening was.
struct QualityHistory: Sendable {
    var target: String
    /// (package, seconds before the trial) per opening; the target's three among them.
    var openings: [(String, Double)]
}

/// SplitMix64: the same numbers on every machine for a seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The seeded query sets of the quality benchmark, made from the corpus
/// itself (committed as this code, not as data).
///
/// - `prefix`: a random package, the first 2–6 characters of its name.
/// - `typo`: a random package, one word of its name (of at least four
///   letters once edited, the engine's rule for forgiving a typo) gets one
///   swap of two adjacent letters, deletion, insertion or substitution, at
///   a random letter position, the first included; digits are never
///   edited (a version is not a typo).
/// - `summary`: two distinct words of three letters or more of a random
///   package's summary, in their order, among those in at most 1% of the
///   summaries (`for`, `module`, `library` are not what a person recalls
///   an item by), and held together by at most three summaries (families
///   of packages share one summary: no engine can tell them apart).
/// - `history`: per trial ~200 random packages opened once each over
///   the last three weeks, and a target opened three times; the query is
///   the first 2, then 3, characters of the target's name.
enum QualitySets {
    static let seed: UInt64 = 20_261_125

    static func make(_ packages: [DebianPackage], counts: [QualityKind: Int]) -> (queries: [QualityQuery], histories: [QualityHistory]) {
        // One stream per kind: a change to one kind's generator leaves the others' queries as they were.
        var random = SeededGenerator(seed: seed)
        var queries: [QualityQuery] = []
        func pick() -> DebianPackage { packages[Int(random.next() % UInt64(packages.count))] }

        for _ in 0..<(counts[.prefix] ?? 0) {
            let package = pick()
            let name = Array(package.id.lowercased())
            let length = min(name.count, 2 + Int(random.next() % 5))
            queries.append(QualityQuery(kind: .prefix, text: String(name.prefix(length)), target: package.id))
        }

        random = SeededGenerator(seed: seed &+ 1)
        var typos = 0
        while typos < (counts[.typo] ?? 0) {
            let package = pick()
            guard let text = typo(in: package.id.lowercased(), &random) else { continue }
            queries.append(QualityQuery(kind: .typo, text: text, target: package.id))
            typos += 1
        }

        // Words in more than 1% of summaries ("for", "module", "library") are
        // not what a person recalls an item by.
        func summaryWords(_ package: DebianPackage) -> [String] {
            let summary: String = (package.summary ?? "").lowercased()
            return summary.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map { String($0) }
        }
        var holders: [String: [Int32]] = [:]
        for (index, package) in packages.enumerated() {
            for word in Set(summaryWords(package)) { holders[word, default: []].append(Int32(index)) }
        }
        let common = max(1, packages.count / 100)
        random = SeededGenerator(seed: seed &+ 2)
        var summaries = 0
        while summaries < (counts[.summary] ?? 0) {
            let package = pick()
            let words = summaryWords(package).filter { $0.count >= 3 && $0.allSatisfy(\.isLetter) && holders[$0, default: []].count <= common }
            guard words.count >= 2 else { continue }
            let first = Int(random.next() % UInt64(words.count))
            var second = Int(random.next() % UInt64(words.count - 1))
            if second >= first { second += 1 }
            let (a, b) = (min(first, second), max(first, second))
            guard words[a] != words[b] else { continue }
            // Answerable: at most three summaries hold both words (Debian has
            // families of packages sharing one summary, which no engine can
            // tell apart).
            let both = Set(holders[words[a], default: []]).intersection(holders[words[b], default: []])
            guard both.count <= 3 else { continue }
            queries.append(QualityQuery(kind: .summary, text: "\(words[a]) \(words[b])", target: package.id))
            summaries += 1
        }

        random = SeededGenerator(seed: seed &+ 3)
        var histories: [QualityHistory] = []
        let day = 86_400.0
        for trial in 0..<(counts[.history] ?? 0) {
            let target = pick()
            var openings: [(String, Double)] = (0..<3).map { _ in (target.id, Double(random.next() % 21_000) / 1_000 * day) }
            for _ in 0..<200 {
                let other = pick()
                openings.append((other.id, Double(random.next() % 21_000) / 1_000 * day))
            }
            histories.append(QualityHistory(target: target.id, openings: openings))
            let name = Array(target.id.lowercased())
            for length in [2, 3] where name.count >= length {
                queries.append(QualityQuery(kind: .history, text: String(name.prefix(length)), target: target.id, trial: trial))
            }
        }
        return (queries, histories)
    }

    /// `name` with one typo in one of its words, or nil when no word fits.
    static func typo(in name: String, _ random: inout SeededGenerator) -> String? {
        let characters = Array(name)
        // Words: runs of letters and digits, as the tokenizers split them.
        var words: [Range<Int>] = []
        var start: Int?
        for (index, character) in characters.enumerated() {
            let inWord = character.isLetter || character.isNumber
            if inWord, start == nil { start = index }
            if !inWord, let begun = start { words.append(begun..<index); start = nil }
        }
        if let begun = start { words.append(begun..<characters.count) }
        let letterCount = { (range: Range<Int>) in characters[range].filter(\.isLetter).count }
        let candidates = words.filter { letterCount($0) >= 4 }
        guard !candidates.isEmpty else { return nil }
        let word = candidates[Int(random.next() % UInt64(candidates.count))]
        let letters = word.filter { characters[$0].isLetter }
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz")
        var edited = characters
        switch random.next() % 4 {
        case 0:   // swap two adjacent, different letters
            let pairs = letters.filter { $0 + 1 < word.upperBound && characters[$0 + 1].isLetter && characters[$0] != characters[$0 + 1] }
            guard !pairs.isEmpty else { return nil }
            let at = pairs[Int(random.next() % UInt64(pairs.count))]
            edited.swapAt(at, at + 1)
        case 1:   // delete a letter (the word keeps four)
            guard letters.count >= 5 else { return nil }
            edited.remove(at: letters[Int(random.next() % UInt64(letters.count))])
        case 2:   // insert a letter
            let at = word.lowerBound + Int(random.next() % UInt64(word.count + 1))
            edited.insert(alphabet[Int(random.next() % 26)], at: at)
        default:  // replace a letter by another
            let at = letters[Int(random.next() % UInt64(letters.count))]
            var letter = alphabet[Int(random.next() % 26)]
            while letter == characters[at] { letter = alphabet[Int(random.next() % 26)] }
            edited[at] = letter
        }
        let text = String(edited)
        return text == name ? nil : text
    }
}
