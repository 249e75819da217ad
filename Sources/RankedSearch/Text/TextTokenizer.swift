/// Turns text into the tokens the full-text index stores, and what a user
/// types into the terms it searches.
///
/// Both sides fold text the same way (``TextFolding``) and then split it:
/// - a run of letters, digits and marks is a word (`Zoë's` → `zoe`, `s`);
///   a word ending in a Hangul particle is also indexed without it;
/// - a run of Han ideographs or kana is indexed as its overlapping
///   bigrams followed by its single characters, so one- and two-character
///   words are found anywhere, and longer ones as a phrase of bigrams.
///
/// A word with camelCase or letter/digit transitions (`MyWindowClass`,
/// `mp3`) is also indexed by its parts and every run of consecutive parts
/// (`my`, `window`, `class`, `mywindow`, `windowclass`), as Spotlight's word
/// matching splits there: typing `window` finds it, and any run of words
/// the query language's `w` modifier can match is one token, so the index
/// can pick its candidates. Words of more than ``maxPartRuns`` parts get
/// their single parts only.
///
/// Tokens never contain spaces or quotes: a column's text is its tokens
/// joined by single spaces, stored in an FTS5 table with the `ascii`
/// tokenizer, which keeps each of them whole (the differential tests'
/// reference, ``FullTextIndex/buildReference(_:)``).
package enum TextTokenizer {
    /// Bump when tokens change: stores re-derive their full-text index then.
    package static let version = 4

    /// One thing a user typed, to match in any text field.
    package struct QueryTerm: Sendable, Hashable {
        /// One token, or several that must appear in a row (a CJK phrase).
        package var tokens: [String]
        /// The last token matches as a prefix.
        package var isPrefix: Bool
        /// Other whole tokens that also satisfy the term: a Korean word's
        /// stems without its particles (`학교를` is also `학교`).
        package var alternatives: [String] = []

        @_spi(Inspection) public init(tokens: [String], isPrefix: Bool, alternatives: [String] = []) {
            self.tokens = tokens
            self.isPrefix = isPrefix
            self.alternatives = alternatives
        }
    }

    /// Most parts of a word for which every run of parts is indexed.
    static let maxPartRuns = 8

    /// Most terms taken from one query; the rest is ignored.
    @_spi(Inspection) public static let maxQueryTerms = 32

    /// Hands the index tokens of `text` to `sink`, in order, as UTF-8
    /// bytes (valid only during the call): the one definition of what is
    /// indexed, for the ranked index (``DocumentTokens``) and the
    /// space-joined text of the reference table (``appendIndexTokens(of:to:)``).
    /// Returns whether every byte of `text` is ASCII.
    @discardableResult
    static func forEachIndexToken<Sink: IndexTokenSink>(of text: String, into sink: inout Sink) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            // The common case, byte by byte, when every byte is ASCII.
            if Self.isASCII(bytes) {
                asciiTokens(bytes, into: &sink)
                return true
            }
            // Otherwise run by run between ASCII spaces, which end every
            // word, fold nothing and split no normalization sequence:
            // the runs' tokens are the text's, and only runs that are not
            // ASCII take the Unicode path (~30 times slower a byte).
            var start = 0
            let count = bytes.count
            while start < count {
                while start < count, Self.isASCIISpace(bytes[start]) { start += 1 }
                var end = start
                while end < count, !Self.isASCIISpace(bytes[end]) { end += 1 }
                guard end > start else { break }
                let run = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if Self.isASCII(run) {
                    asciiTokens(run, into: &sink)
                } else {
                    unicodeTokens(String(decoding: run, as: UTF8.self), into: &sink)
                }
                start = end
            }
            return false
        }
    }

    @inline(__always)
    static func isASCIISpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }

    /// Any text: folded (``TextFolding``), split into words and CJK runs,
    /// Korean stems and the parts of words with transitions added.
    static func unicodeTokens<Sink: IndexTokenSink>(_ text: String, into sink: inout Sink) {
        var scratch: [UInt8] = []
        let parts = partsAtTransitions(text)
        forEachSegment(of: TextFolding.fold(text)) { segment, isCJK in
            if isCJK {
                cjkTokens(segment, scratch: &scratch, into: &sink)
            } else {
                emit(segment, scratch: &scratch, into: &sink)
                for stem in KoreanParticles.stems(of: segment) { emit(stem, scratch: &scratch, into: &sink) }
            }
        }
        for part in parts {
            forEachSegment(of: TextFolding.fold(part)) { segment, _ in emit(segment, scratch: &scratch, into: &sink) }
        }
    }

    /// Appends the index tokens of `text` to `out`, space-separated.
    package static func appendIndexTokens(of text: String, to out: inout String) {
        var joined = JoinedTokens(text: out)
        out = ""
        forEachIndexToken(of: text, into: &joined)
        out = joined.text
    }

    /// The index tokens of `text` through the general path only (no ASCII
    /// fast path): what the fast path must agree with.
    @_spi(Inspection) public static func unicodeIndexTokens(of text: String) -> [String] {
        var joined = JoinedTokens(text: "")
        unicodeTokens(text, into: &joined)
        return joined.text.split(separator: " ").map(String.init)
    }

    /// The index tokens of `text`, for tests and explanations.
    package static func indexTokens(of text: String) -> [String] {
        var out = ""
        appendIndexTokens(of: text, to: &out)
        return out.split(separator: " ").map(String.init)
    }

    /// What a user typed, as terms that must all match; the last word is a
    /// prefix while it is being typed: when the text ends inside it.
    ///
    /// A space or punctuation after the last word says it is finished, as
    /// in Meilisearch: `gtk` also finds `gtkmm`, `gtk ` only `gtk`. A `*`
    /// after it keeps it a prefix (`gtk*`).
    ///
    /// ```swift
    /// TextTokenizer.queryTerms("zoe mar")   // zoe, mar*
    /// TextTokenizer.queryTerms("zoe mar ")  // zoe, mar
    /// ```
    package static func queryTerms(_ text: String) -> [QueryTerm] {
        if let terms = asciiQueryTerms(text) { return terms }
        return unicodeQueryTerms(text)
    }

    /// ``queryTerms(_:)`` through the general path only: what the ASCII
    /// path must agree with.
    @_spi(Inspection) public static func unicodeQueryTerms(_ text: String) -> [QueryTerm] {
        var terms: [QueryTerm] = []
        let folded = TextFolding.fold(text)
        forEachSegment(of: folded) { segment, isCJK in
            if isCJK {
                if segment.count <= 2 {
                    terms.append(QueryTerm(tokens: [string(segment)], isPrefix: false))
                } else {
                    let bigrams = (0..<(segment.count - 1)).map { string(segment[$0...($0 + 1)]) }
                    terms.append(QueryTerm(tokens: bigrams, isPrefix: false))
                }
            } else {
                terms.append(QueryTerm(tokens: [string(segment)], isPrefix: false,
                                       alternatives: KoreanParticles.stems(of: segment).map { string($0) }))
            }
        }
        // A `*` typed after the word asks for its completions all the same.
        let endsInWord = folded.unicodeScalars.reversed().first { $0 != "*" }.map(TextFolding.isWordScalar) ?? false
        guard terms.count <= maxQueryTerms else {
            // The last term kept is followed by more text: it is whole.
            terms.removeLast(terms.count - maxQueryTerms)
            return terms
        }
        if endsInWord, let last = terms.indices.last, terms[last].tokens.count == 1,
           !(terms[last].tokens[0].unicodeScalars.first.map { TextFolding.isCJK($0.value) } ?? false) {
            terms[last].isPrefix = true
        }
        return terms
    }

    /// ``queryTerms(_:)`` of ASCII text, byte by byte (nil for any other
    /// text): runs of letters and digits, lowercased, the last a prefix
    /// when the text ends inside it (or in `*`s after it). What a person
    /// types is mostly ASCII, and the general path's folding and scalar
    /// arrays were ~7% of a multi-word search of a 10,000-item store.
    static func asciiQueryTerms(_ text: String) -> [QueryTerm]? {
        var text = text
        return text.withUTF8 { bytes -> [QueryTerm]? in
            guard isASCII(bytes) else { return nil }
            // The index's own table of word bytes and their lowercase (``asciiClasses``).
            let classes = asciiClasses
            var terms: [QueryTerm] = []
            var start = -1
            @inline(__always) func isWord(_ byte: UInt8) -> Bool { classes[Int(byte)] != 0 }
            func endWord(at end: Int) {
                let word = String(unsafeUninitializedCapacity: end - start) { out in
                    for index in start..<end { out[index - start] = UInt8(truncatingIfNeeded: classes[Int(bytes[index])]) }
                    return end - start
                }
                terms.append(QueryTerm(tokens: [word], isPrefix: false))
                start = -1
            }
            for index in 0..<bytes.count {
                if isWord(bytes[index]) {
                    if start < 0 { start = index }
                } else if start >= 0 {
                    endWord(at: index)
                }
            }
            if start >= 0 { endWord(at: bytes.count) }
            guard terms.count <= maxQueryTerms else {
                terms.removeLast(terms.count - maxQueryTerms)
                return terms
            }
            // A `*` typed after the word asks for its completions all the same.
            if let last = bytes.lastIndex(where: { $0 != UInt8(ascii: "*") }), isWord(bytes[last]), !terms.isEmpty {
                terms[terms.count - 1].isPrefix = true
            }
            return terms
        }
    }

    // MARK: - Splitting

    private static func forEachSegment(of folded: String, _ body: ([Unicode.Scalar], Bool) -> Void) {
        var segment: [Unicode.Scalar] = []
        var segmentIsCJK = false
        segment.reserveCapacity(32)
        for scalar in folded.unicodeScalars {
            let isCJK = TextFolding.isCJK(scalar.value)
            let isWord = isCJK || TextFolding.isWordScalar(scalar)
            if !isWord || (isCJK != segmentIsCJK && !segment.isEmpty) {
                if !segment.isEmpty { body(segment, segmentIsCJK); segment.removeAll(keepingCapacity: true) }
            }
            if isWord {
                segment.append(scalar)
                segmentIsCJK = isCJK
            }
        }
        if !segment.isEmpty { body(segment, segmentIsCJK) }
    }

    private static func cjkTokens<Sink: IndexTokenSink>(_ run: [Unicode.Scalar], scratch: inout [UInt8], into sink: inout Sink) {
        if run.count > 1 {
            for index in 0..<(run.count - 1) { emit(run[index...(index + 1)], scratch: &scratch, into: &sink) }
        }
        for scalar in run { emit(CollectionOfOne(scalar), scratch: &scratch, into: &sink) }
    }

    /// Hands scalars to the sink as UTF-8.
    private static func emit<S: Collection<Unicode.Scalar>, Sink: IndexTokenSink>(_ token: S, scratch: inout [UInt8], into sink: inout Sink) {
        scratch.removeAll(keepingCapacity: true)
        for scalar in token { UTF8.encode(scalar) { scratch.append($0) } }
        scratch.withUnsafeBufferPointer { sink.take($0) }
    }

    private static func string<S: Sequence<Unicode.Scalar>>(_ scalars: S) -> String {
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars)
        return result
    }

    /// True when every byte is below 0x80, eight at a time.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        var bits: UInt64 = 0
        while index + 8 <= count {
            bits |= UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            index += 8
        }
        while index < count {
            bits |= UInt64(base[index])
            index += 1
        }
        return bits & 0x8080_8080_8080_8080 == 0
    }

    /// ASCII text: letters and digits make words, lowercased; a word with
    /// transitions (`aB`, `a1`, `1a`) is followed by its parts and runs of
    /// parts (as ``partsAtTransitions(_:)`` gives them for any text).
    ///
    /// A byte costs one load of ``asciiClasses`` (its lowercase and its
    /// class): only a word of two classes or more (a digit and a letter, a
    /// lowercase and an uppercase letter) can have transitions, and only
    /// such a word is read again for them. Looked for byte by byte in
    /// every word, transitions were about half of the loop's instructions.
    private static func asciiTokens<Sink: IndexTokenSink>(_ text: UnsafeBufferPointer<UInt8>, into sink: inout Sink) {
        guard let input = text.baseAddress, !text.isEmpty else { return }
        let count = text.count
        // 8 bytes past the longest word, so that sinks read tokens by words
        // (a word is never longer than the text: the buffer bounds every write).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count + 8) { buffer in
            asciiClasses.withUnsafeBufferPointer { classes in
                let word = buffer.baseAddress!
                word.initialize(repeating: 0, count: count + 8)
                // Offsets in the word where a part starts: on the stack for
                // words of up to `cutCapacity` bytes (an array here was a
                // heap allocation for most texts), else for the word alone.
                withUnsafeTemporaryAllocation(of: Int.self, capacity: cutCapacity) { cutBuffer in
                    var index = 0
                    while index < count {
                        // A word: letters and digits, lowercased, and the classes it holds.
                        var length = 0
                        var held: UInt16 = 0
                        while index < count {
                            let entry = classes[Int(input[index] & 0x7F)]
                            if entry == 0 {
                                if length > 0 { break }
                                index += 1
                                continue
                            }
                            held |= entry
                            word[length] = UInt8(truncatingIfNeeded: entry)
                            length += 1
                            index += 1
                        }
                        guard length > 0 else { continue }
                        sink.take(padded: UnsafeBufferPointer(start: word, count: length))
                        let kinds = held >> 8
                        guard kinds & (kinds &- 1) != 0 else { continue }
                        // Two classes or more: cuts at transitions, from the word's own bytes.
                        let original = input + (index - length)
                        let longWord = length > cutCapacity ? UnsafeMutablePointer<Int>.allocate(capacity: length) : nil
                        defer { longWord?.deallocate() }
                        let cuts = longWord ?? cutBuffer.baseAddress!
                        var cutCount = 0
                        var previous = original[0]
                        for offset in 1..<length {
                            let byte = original[offset]
                            if isTransition(previous, byte) { cuts[cutCount] = offset; cutCount += 1 }
                            previous = byte
                        }
                        if cutCount > 0 { emitParts(of: word, length: length, cuts: UnsafeBufferPointer(start: cuts, count: cutCount), into: &sink) }
                    }
                }
            }
        }
    }

    /// Longest word whose cuts ``asciiTokens(_:into:)`` keeps on the stack.
    private static let cutCapacity = 64

    /// Per ASCII byte: for a letter or a digit, itself lowercased in the
    /// low byte and its class in the high byte (1 digit, 2 lowercase, 4
    /// uppercase); for any other byte, which ends a word, 0.
    private static let asciiClasses: [UInt16] = (0..<128).map { byte in
        switch UInt8(byte) {
        case 0x30...0x39: UInt16(byte) | 1 << 8
        case 0x61...0x7A: UInt16(byte) | 2 << 8
        case 0x41...0x5A: (UInt16(byte) | 0x20) | 4 << 8
        default: 0
        }
    }

    /// The parts of a word cut at `cuts`, and the runs of them (all runs
    /// for up to ``maxPartRuns`` parts, else single parts), the whole word excepted.
    private static func emitParts<Sink: IndexTokenSink>(of word: UnsafeMutablePointer<UInt8>, length: Int, cuts: UnsafeBufferPointer<Int>,
                                                        into sink: inout Sink) {
        // Part i spans bound(i)..<bound(i + 1): 0, the cuts, then `length`
        // (read from `cuts`, not gathered into an array of its own per word).
        let parts = cuts.count + 1
        @inline(__always) func bound(_ index: Int) -> Int { index == 0 ? 0 : index <= cuts.count ? cuts[index - 1] : length }
        for first in 0..<parts {
            let lastPart = parts <= maxPartRuns ? parts : first + 1
            let start = bound(first)
            for last in (first + 1)...lastPart where !(first == 0 && last == parts) {
                sink.take(padded: UnsafeBufferPointer(start: word + start, count: bound(last) - start))
            }
        }
    }

    /// Whether a part starts at `byte` after `previous` (both ASCII letters
    /// or digits, original case): letter↔digit, or lowercase→uppercase.
    @inline(__always)
    private static func isTransition(_ previous: UInt8, _ byte: UInt8) -> Bool {
        // Digits are 0x30–0x39 (bit 6 clear), letters 0x41–0x7A (bit 6 set);
        // uppercase letters have bit 5 clear, lowercase set.
        let previousIsLetter = previous & 0x40 != 0, isLetter = byte & 0x40 != 0
        if previousIsLetter != isLetter { return true }
        return isLetter && previous & 0x20 != 0 && byte & 0x20 == 0
    }

    /// The parts, and runs of parts, of the words of `text` that have
    /// lower→upper or letter↔digit transitions (`ÉcoleNormale` → `École`,
    /// `Normale`).
    static func partsAtTransitions(_ text: String) -> [String] {
        var parts: [String] = []
        var word: [String.UnicodeScalarView] = [String.UnicodeScalarView()]
        var previous: Unicode.Scalar?
        func endWord() {
            if word.count > 1 {
                let pieces = word.map { String($0) }
                for first in pieces.indices {
                    let end = pieces.count <= maxPartRuns ? pieces.count : first + 1
                    for last in (first + 1)...end where !(first == 0 && last == pieces.count) {
                        parts.append(pieces[first..<last].joined())
                    }
                }
            }
            word = [String.UnicodeScalarView()]
        }
        for scalar in text.unicodeScalars {
            guard TextFolding.isWordScalar(scalar), !TextFolding.isCJK(scalar.value) else {
                endWord()
                previous = nil
                continue
            }
            if let last = previous {
                let lastIsDigit = last.properties.numericType != nil
                let isDigit = scalar.properties.numericType != nil
                if lastIsDigit != isDigit || (last.properties.isLowercase && scalar.properties.isUppercase) {
                    word.append(String.UnicodeScalarView())
                }
            }
            word[word.count - 1].append(scalar)
            previous = scalar
        }
        endWord()
        return parts
    }
}

/// Receives index tokens one at a time (``TextTokenizer/forEachIndexToken(of:into:)``).
protocol IndexTokenSink {
    /// One token's UTF-8 bytes, valid only during the call.
    mutating func take(_ token: UnsafeBufferPointer<UInt8>)
    /// The same, with at least 8 readable bytes after the token (so that
    /// it can be read a word at a time).
    mutating func take(padded token: UnsafeBufferPointer<UInt8>)
}

extension IndexTokenSink {
    mutating func take(padded token: UnsafeBufferPointer<UInt8>) { take(token) }
}

/// Tokens joined by single spaces (``TextTokenizer/appendIndexTokens(of:to:)``).
struct JoinedTokens: IndexTokenSink {
    var text: String

    mutating func take(_ token: UnsafeBufferPointer<UInt8>) {
        if !text.isEmpty { text.append(" ") }
        text += String(decoding: token, as: UTF8.self)
    }
}
