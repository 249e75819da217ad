import Foundation

extension String {
    /// The text as it may reach a terminal: control characters (C0, DEL,
    /// C1: escape sequences, carriage returns, backspaces, newlines, tabs),
    /// bidirectional overrides and line separators are shown as escapes
    /// (`\n`, `\t`, `\u{1B}`), so that one app's content can neither rewrite
    /// the screen, hide other results, nor break a line of tab-separated
    /// output. `--json` output is exact instead (JSON escapes them).
    ///
    /// ```swift
    /// print("  \(result.title.terminalSafe)")   // "Evil\u{1B}[2J" stays on its line, visibly
    /// ```
    var terminalSafe: String {
        guard unicodeScalars.contains(where: Self.needsEscape) else { return self }
        var out = ""
        for scalar in unicodeScalars {
            guard Self.needsEscape(scalar) else { out.unicodeScalars.append(scalar); continue }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default: out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return out
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true                  // C0, DEL, C1
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true   // bidirectional marks and overrides
        case 0x2028, 0x2029: return true                              // line and paragraph separators
        default: return false
        }
    }
}
