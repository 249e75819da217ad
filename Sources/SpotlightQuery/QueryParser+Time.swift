import Foundation

/// `$time` expressions (spec §6).
extension QueryParserState {
    static let timeNames = "now, today, yesterday, this_week, last_week, this_month, this_year, iso"

    /// `$time.name`, `$time.name(±N)`, `$time.name()`, `$time.iso(text)`.
    mutating func parseTime() throws(QuerySyntaxError) -> TimeExpression {
        let start = lexer.position
        guard lexer.startsWith("$time.") else {
            let found = lexer.describe(at: start)
            throw lexer.error(
                at: start, expected: "'$time.'", reason: "unknown variable \(found)",
                hint: "the only variables are $time.\(Self.timeNames.replacingOccurrences(of: ", ", with: ", $time."))")
        }
        lexer.advance(6)
        let nameStart = lexer.position
        let (letters, _) = lexer.scanWordCharacters()
        var view = String.UnicodeScalarView()
        view.append(contentsOf: letters)
        let name = String(view)
        if name.isEmpty {
            throw lexer.error(at: nameStart, expected: "a $time name", hint: "one of \(Self.timeNames)")
        }
        switch name {
        case "iso":
            return .iso(try parseISOArgument())
        case "now", "today", "this_week", "this_month", "this_year", "yesterday", "last_week":
            let offset = try parseOffsetArgument(name: name)
            switch name {
            case "now": return .now(offsetSeconds: offset ?? 0)
            case "today": return .today(offsetDays: offset ?? 0)
            case "this_week": return .thisWeek(offsetWeeks: offset ?? 0)
            case "this_month": return .thisMonth(offsetMonths: offset ?? 0)
            case "this_year": return .thisYear(offsetYears: offset ?? 0)
            case "yesterday": return .yesterday
            default: return .lastWeek
            }
        default:
            throw lexer.error(
                at: nameStart, expected: "a $time name", found: "'\(name)'",
                reason: "unknown $time variable '\(name)'", hint: "known names are \(Self.timeNames)")
        }
    }

    /// `(±N)`, `()` or nothing; `nil` when there is no number.
    mutating func parseOffsetArgument(name: String) throws(QuerySyntaxError) -> Int? {
        guard lexer.peek() == "(" else { return nil }
        let open = lexer.position
        lexer.advance()
        lexer.skipWhitespace()
        if lexer.peek() == ")" {
            lexer.advance()
            return nil
        }
        let argumentStart = lexer.position
        while let scalar = lexer.peek(), scalar != ")", scalar != "(", scalar != "&", scalar != "|",
            !QueryLexer.isWhitespace(scalar), !QueryLexer.isQuote(scalar)
        {
            lexer.advance()
        }
        let argument = lexer.scalars[argumentStart..<lexer.position]
        if argument.isEmpty, lexer.isAtEnd {
            throw lexer.unclosedParenthesis(openedAt: open)
        }
        if name == "yesterday" || name == "last_week" {
            let instead = name == "yesterday" ? "$time.today(-N)" : "$time.this_week(-N)"
            throw lexer.error(
                at: argumentStart, expected: "')'", reason: "$time.\(name) takes no offset", hint: "use \(instead)")
        }
        guard let offset = QueryIntegerText.parse(argument) else {
            let digits = argument.first == "+" || argument.first == "-" ? argument.dropFirst() : argument
            let tooBig = !digits.isEmpty && digits.allSatisfy { $0 >= "0" && $0 <= "9" }
            throw lexer.error(
                at: argumentStart, expected: "a whole number", reason: tooBig ? "$time offset out of range" : "invalid $time offset",
                hint: "the offset is a whole number of \(Self.unit(of: name)), as in $time.\(name)(-7)")
        }
        lexer.skipWhitespace()
        guard lexer.peek() == ")" else {
            if lexer.isAtEnd {
                throw lexer.unclosedParenthesis(openedAt: open)
            }
            throw lexer.error(
                at: lexer.position, expected: "')'", reason: "invalid $time offset",
                hint: "the offset is a whole number of \(Self.unit(of: name)), as in $time.\(name)(-7)")
        }
        lexer.advance()
        return offset
    }

    static func unit(of name: String) -> String {
        switch name {
        case "now": "seconds"
        case "today": "days"
        case "this_week": "weeks"
        case "this_month": "months"
        default: "years"
        }
    }

    /// `("2025-06-18T15:00:00Z")` or `(2025-06-18 15:00:00 +0800)`.
    mutating func parseISOArgument() throws(QuerySyntaxError) -> Date {
        let hint = "use ISO-8601 such as $time.iso(2025-06-18T15:00:00Z)"
        guard lexer.peek() == "(" else {
            throw lexer.error(at: lexer.position, expected: "'(' after $time.iso", hint: hint)
        }
        let open = lexer.position
        lexer.advance()
        lexer.skipWhitespace()
        let argumentStart = lexer.position
        let text: String
        if let quote = lexer.peek(), QueryLexer.isQuote(quote) {
            text = try lexer.scanQuoted().text
            lexer.skipWhitespace()
            guard lexer.peek() == ")" else {
                if lexer.isAtEnd {
                    throw lexer.unclosedParenthesis(openedAt: open)
                }
                throw lexer.error(at: lexer.position, expected: "')'")
            }
        } else {
            while let scalar = lexer.peek(), scalar != ")" { lexer.advance() }
            guard !lexer.isAtEnd else {
                throw lexer.unclosedParenthesis(openedAt: open)
            }
            var view = String.UnicodeScalarView()
            view.append(contentsOf: lexer.scalars[argumentStart..<lexer.position])
            text = String(view)
        }
        lexer.advance()  // )
        guard let date = ISO8601Text.parse(text) else {
            throw lexer.error(
                at: argumentStart, expected: "an ISO-8601 date", reason: "invalid ISO-8601 date", hint: hint)
        }
        return date
    }
}
