import Foundation

/// Folding of text before tokenizing: the one place that decides what
/// "case-, diacritic- and width-insensitive" means.
///
/// - width: NFKC compatibility mapping (full-width `Ａ` → `a`, half-width
///   `ｶ` → `カ`, ligatures `ﬁ` → `fi`);
/// - case: Unicode lowercase, plus `ß` → `ss` and final `ς` → `σ`;
/// - diacritics: combining marks of the Latin, Greek and Cyrillic
///   diacritic blocks removed (`é` → `e`, `ñ` → `n`), while the kana
///   voicing marks stay (`が` is not `か`) and Hangul recomposes (NFC).
package enum TextFolding {
    /// The folded text. ASCII text only has its letters lowercased.
    package static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        let decomposed = text.decomposedStringWithCompatibilityMapping.lowercased()
        var scalars = String.UnicodeScalarView()
        for scalar in decomposed.unicodeScalars {
            switch scalar.value {
            case 0x0300...0x036F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F:
                continue // combining diacritical marks
            case 0x00DF: // ß
                scalars.append("s"); scalars.append("s")
            case 0x03C2: // final sigma
                scalars.append("\u{03C3}")
            default:
                scalars.append(scalar)
            }
        }
        return String(scalars).precomposedStringWithCanonicalMapping
    }

    /// Han ideographs, kana and the marks that live inside Japanese words:
    /// text without spaces between words, indexed as bigrams.
    @inline(__always)
    package static func isCJK(_ value: UInt32) -> Bool {
        switch value {
        case 0x3005, 0x3006, 0x3007: true                 // 々 〆 〇
        case 0x3040...0x309F, 0x30A0...0x30FF, 0x31F0...0x31FF: true  // hiragana, katakana
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF: true // Han
        case 0x20000...0x3FFFF: true                     // Han extensions
        default: false
        }
    }

    /// Letters, digits and marks make words; everything else separates them.
    @inline(__always)
    package static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let v = scalar.value
            return (v >= 0x30 && v <= 0x39) || (v >= 0x61 && v <= 0x7A) || (v >= 0x41 && v <= 0x5A)
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }
}
