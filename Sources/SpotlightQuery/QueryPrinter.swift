import Foundation

/// Writes a ``QueryExpression`` back as a canonical query string that
/// ``QueryParser`` reads back to the same expression:
/// `QueryParser.parse(QueryPrinter.print(e)) == e`.
///
/// ```swift
/// let query = try QueryParser.parse("title ==[wc] 'Paris' || (rating>3 && kMDItemFSName = *.ts)")
/// QueryPrinter.print(query)
/// // title == "Paris"cw || rating > 3 && kMDItemFSName == "*.ts"
/// ```
///
/// The canonical form:
/// * strings always in double quotes, with `\\`, `\"`, and `\*` / `\?` for
///   literal asterisks and question marks; modifiers after the closing quote
///   in the order `cdwt`;
/// * modifiers of a non-string value (number, `$time`, `null`) in brackets
///   after the operator: `rating ==[c] 3`;
/// * numbers in Swift's shortest round-trip spelling, integral ones without
///   `.0` (`3`, `48.8566`, `1e+16`);
/// * `$time.today`, `$time.today(-1)`, `$time.now(-86400)`, `$time.yesterday`,
///   `$time.last_week`, `$time.iso(2025-06-18T15:00:00Z)` (UTC, fractional
///   seconds only when present, as many digits as needed to read back exactly);
/// * `InRange(attribute, min, max)`, `*`, `**`, `null`, `==` for equality;
/// * ` && ` and ` || ` with only the parentheses the tree needs: `||` inside
///   `&&`, and a right operand of the same operator (`a && (b && c)`, since
///   the parser groups to the left); `!` always parenthesizes its operand:
///   `!(title == "x")`.
///
/// Not expressible, so not round-tripping: attribute names that are not
/// identifiers, non-finite numbers, dates beyond years ±999,999. An
/// `InRange` bound that is a string reading as an ISO date is written with
/// its first character escaped so that it stays a string.
public enum QueryPrinter {
    /// The canonical query string for an expression.
    ///
    /// ```swift
    /// let expression = QueryExpression.and(
    ///     .or(.comparison(Comparison(attribute: .named("a"), op: .equal, value: .number(1))),
    ///         .comparison(Comparison(attribute: .named("b"), op: .equal, value: .number(2)))),
    ///     .comparison(Comparison(attribute: .named("c"), op: .less, value: .time(.today(offsetDays: -1)))))
    /// QueryPrinter.print(expression)   // (a == 1 || b == 2) && c < $time.today(-1)
    /// ```
    public static func print(_ expression: QueryExpression) -> String {
        var output = ""
        write(expression, into: &output)
        return output
    }

    /// Binding strength: `||` 1, `&&` 2, `!` and atoms 3.
    private static func precedence(_ expression: QueryExpression) -> Int {
        switch expression {
        case .or: 1
        case .and: 2
        case .not, .comparison, .inRange: 3
        }
    }

    private static func write(_ expression: QueryExpression, into output: inout String) {
        switch expression {
        case .comparison(let comparison):
            output += print(comparison)
        case .inRange(let range):
            output += print(range)
        case .not(let operand):
            output += "!("
            write(operand, into: &output)
            output += ")"
        case .or, .and:
            let (isOr, operands) = expression.chain!
            let level = isOr ? 1 : 2
            writeOperand(operands[0], parenthesizeBelow: level, into: &output)
            for right in operands.dropFirst() {
                output += isOr ? " || " : " && "
                writeOperand(right, parenthesizeBelow: level + 1, into: &output)
            }
        }
    }

    private static func writeOperand(_ operand: QueryExpression, parenthesizeBelow level: Int, into output: inout String) {
        if precedence(operand) < level {
            output += "("
            write(operand, into: &output)
            output += ")"
        } else {
            write(operand, into: &output)
        }
    }

    /// `attribute op value` with modifiers.
    static func print(_ comparison: Comparison) -> String {
        let attribute = print(comparison.attribute)
        let letters = modifierLetters(comparison.modifiers)
        switch comparison.value {
        case .pattern(let pattern):
            return "\(attribute) \(comparison.op.rawValue) \(quoted(pattern))\(letters)"
        default:
            let brackets = letters.isEmpty ? "" : "[\(letters)]"
            return "\(attribute) \(comparison.op.rawValue)\(brackets) \(print(comparison.value))"
        }
    }

    /// `InRange(attribute, min, max)`.
    static func print(_ range: InRange) -> String {
        "InRange(\(print(range.attribute)), \(printRangeBound(range.lower)), \(printRangeBound(range.upper)))"
    }

    private static func printRangeBound(_ value: QueryValue) -> String {
        if case .pattern(let pattern) = value, let text = pattern.literalText, ISO8601Text.parse(text) != nil {
            // Escape the first character so the parser keeps it a string, not a date.
            var body = quoted(pattern).unicodeScalars
            body.insert("\\", at: body.index(after: body.startIndex))
            return String(body)
        }
        return print(value)
    }

    static func print(_ attribute: QueryAttribute) -> String {
        switch attribute {
        case .named(let name): name
        case .anyAttribute: "*"
        case .anyAttributeOrContent: "**"
        }
    }

    static func print(_ value: QueryValue) -> String {
        switch value {
        case .pattern(let pattern): quoted(pattern)
        case .number(let number): QueryNumberText.format(number)
        case .time(let time): print(time)
        case .null: "null"
        }
    }

    static func print(_ time: TimeExpression) -> String {
        func withOffset(_ name: String, _ offset: Int) -> String {
            offset == 0 ? "$time.\(name)" : "$time.\(name)(\(offset))"
        }
        switch time {
        case .now(let seconds): return withOffset("now", seconds)
        case .today(let days): return withOffset("today", days)
        case .yesterday: return "$time.yesterday"
        case .thisWeek(let weeks): return withOffset("this_week", weeks)
        case .lastWeek: return "$time.last_week"
        case .thisMonth(let months): return withOffset("this_month", months)
        case .thisYear(let years): return withOffset("this_year", years)
        case .iso(let date): return "$time.iso(\(ISO8601Text.format(date)))"
        }
    }

    /// `"…"` with `\\`, `\"`, `\*`, `\?` escapes.
    static func quoted(_ pattern: QueryPattern) -> String {
        var output = "\""
        for element in pattern.elements {
            switch element {
            case .anyRun: output += "*"
            case .anyOne: output += "?"
            case .literal(let text):
                for scalar in text.unicodeScalars {
                    switch scalar {
                    case "\\", "\"", "*", "?": output.unicodeScalars.append("\\")
                    default: break
                    }
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output + "\""
    }

    /// Letters in the fixed order `cdwt`.
    static func modifierLetters(_ modifiers: QueryModifiers) -> String {
        var letters = ""
        if modifiers.contains(.caseInsensitive) { letters += "c" }
        if modifiers.contains(.diacriticInsensitive) { letters += "d" }
        if modifiers.contains(.wordBased) { letters += "w" }
        if modifiers.contains(.tokenized) { letters += "t" }
        return letters
    }
}
