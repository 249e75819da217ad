import Foundation

/// The corpus at a given scale: its first `count` packages, or, beyond
/// its size, the corpus replicated deterministically.
///
/// Item `i` is copy `k = i / base.count` of package `i % base.count`.
/// Copy 0 is the original; copy k ≥ 1 gets the id `"\(id)~\(k)"`, the
/// token `"\(k)cp"` appended to its summary, and its description's
/// sentences rotated left by `k` (modulo their number). The copy token
/// starts with a digit so that no query of `queries.tsv` (all `[a-z]+`)
/// matches it, even as a prefix: copies change how much text there is,
/// not which words a query finds.
package struct ScaledCorpus: Sendable {
    package let base: [DebianPackage]
    package let count: Int

    package init(base: [DebianPackage], count: Int) {
        precondition(!base.isEmpty)
        self.base = base
        self.count = count
    }

    package func package(at index: Int) -> DebianPackage {
        let original = base[index % base.count]
        let copy = index / base.count
        return copy == 0 ? original : Self.vary(original, copy: copy)
    }

    /// The packages of `range`, made on demand so that a million items never sit in memory.
    package func packages(_ range: Range<Int>) -> [DebianPackage] {
        range.map(package(at:))
    }

    /// The packages of a scale in order, read from the corpus file as they
    /// are asked for (the file read again for each copy): the same packages
    /// as ``package(at:)``'s, without the corpus in memory.
    package final class Stream {
        private let directory: URL
        let count: Int
        private var reader: DebianCorpus.Reader
        private var produced = 0
        private var copy = 0
        /// Packages read in the current pass over the file.
        private var inPass = 0

        init(directory: URL, count: Int) throws {
            self.directory = directory
            self.count = count
            reader = try DebianCorpus.Reader(directory: directory)
        }

        /// The next `limit` packages at most (none past the scale).
        func next(_ limit: Int) throws -> [DebianPackage] {
            var batch: [DebianPackage] = []
            batch.reserveCapacity(min(limit, count - produced))
            while batch.count < limit, produced < count {
                guard let original = try reader.next() else {
                    guard inPass > 0 else { throw BenchError.failed("\(reader.file.path) holds no packages") }
                    try reader.finish()
                    reader = try DebianCorpus.Reader(directory: directory)
                    copy += 1
                    inPass = 0
                    continue
                }
                inPass += 1
                produced += 1
                batch.append(copy == 0 ? original : ScaledCorpus.vary(original, copy: copy))
            }
            if produced == count { try reader.finish() }
            return batch
        }
    }

    package static func vary(_ original: DebianPackage, copy: Int) -> DebianPackage {
        var package = original
        package.id = "\(original.id)~\(copy)"
        let token = "\(copy)cp"
        package.summary = original.summary.map { $0.isEmpty ? token : $0 + " " + token } ?? token
        package.description = original.description.map { rotateSentences($0, by: copy) }
        return package
    }

    /// The text's sentences (each ending at a `.` followed by white space,
    /// keeping that white space) rotated left by `amount`.
    package static func rotateSentences(_ text: String, by amount: Int) -> String {
        var sentences: [Substring] = []
        var start = text.utf8.startIndex
        var index = start
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let next = utf8.index(after: index)
            if utf8[index] == UInt8(ascii: "."), next < utf8.endIndex, isSpace(utf8[next]) {
                var end = next
                while end < utf8.endIndex, isSpace(utf8[end]) { end = utf8.index(after: end) }
                sentences.append(text[start..<end])
                start = end
                index = end
            } else {
                index = next
            }
        }
        if start < utf8.endIndex { sentences.append(text[start...]) }
        guard sentences.count > 1, amount % sentences.count != 0 else { return text }
        let shift = amount % sentences.count
        var rotated = ""
        rotated.reserveCapacity(text.utf8.count + 1)
        for sentence in sentences[shift...] + sentences[..<shift] {
            rotated += sentence
            if let last = sentence.utf8.last, !isSpace(last) { rotated += " " }
        }
        while let last = rotated.utf8.last, isSpace(last) { rotated.removeLast() }
        return rotated
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n")
    }
}
