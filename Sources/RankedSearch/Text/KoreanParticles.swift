/// Korean postpositional particles (조사) that attach to the word before
/// them: `학교에서` is `학교` + `에서`. The tokenizer indexes a Hangul word
/// both whole and without its particle, and searches a typed word by its
/// stem, so `학교` finds `학교에서`, and `학교를` finds `학교에서` too.
@_spi(Inspection) public enum KoreanParticles {
    /// Longest first, so `에서부터` wins over `부터`.
    static let particles: [[Unicode.Scalar]] = [
        "에서부터", "으로부터", "에게서", "한테서", "으로써", "으로서", "이라고", "이라는",
        "에서는", "에서도", "에서의", "에게는", "으로의", "에는", "에도", "에의", "과의", "와의", "으로는", "까지", "부터", "에서", "에게", "한테", "께서",
        "으로", "처럼", "보다", "마다", "조차", "만큼", "이랑", "하고", "라고", "이나", "이며",
        "로써", "로서", "은", "는", "이", "가", "을", "를", "의", "에", "로", "와", "과", "도",
        "만", "랑", "께",
    ].map { Array($0.unicodeScalars) }.sorted { $0.count > $1.count }

    @inline(__always)
    package static func isHangul(_ value: UInt32) -> Bool {
        (0xAC00...0xD7A3).contains(value) || (0x1100...0x11FF).contains(value) || (0x3130...0x318F).contains(value)
    }

    /// The word without its trailing particles, one at a time: `패키지에는`
    /// gives `패키지에`, then `패키지`. Empty for a word without one (or
    /// whose particle is the whole word).
    package static func stems(of word: [Unicode.Scalar]) -> [[Unicode.Scalar]] {
        var stems: [[Unicode.Scalar]] = []
        var current = word
        while stems.count < 3, let next = stem(of: current) {
            stems.append(next)
            current = next
        }
        return stems
    }

    /// The word without one trailing particle, or nil when it has none (or
    /// when the particle is the whole word).
    package static func stem(of word: [Unicode.Scalar]) -> [Unicode.Scalar]? {
        guard let last = word.last, isHangul(last.value) else { return nil }
        for particle in particles where word.count > particle.count {
            if word.suffix(particle.count).elementsEqual(particle) {
                return Array(word.prefix(word.count - particle.count))
            }
        }
        return nil
    }
}
