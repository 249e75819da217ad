import Foundation
public import SpotlightIndex

/// An attribute value as `mdls` prints one: strings quoted, arrays in
/// parentheses, dates in ISO 8601, data as its size. `spotlight show` and the
/// service's `/v1/show` print values this way.
///
/// ```swift
/// AttributeText.text(.strings(["a", "b"]))   // ("a", "b")
/// ```
public enum AttributeText {
    /// - Parameter safe: applied to every string and URL after quoting (the
    ///   command line makes them safe for a terminal).
    public static func text(_ value: AttributeValue, escaping safe: (String) -> String = { $0 }) -> String {
        func quoted(_ text: String) -> String { "\"" + safe(text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")) + "\"" }
        func date(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
        switch value {
        case .string(let text): return quoted(text)
        case .strings(let texts): return "(" + texts.map(quoted).joined(separator: ", ") + ")"
        case .number(let number): return number.description
        case .numbers(let numbers): return "(" + numbers.map(\.description).joined(separator: ", ") + ")"
        case .date(let value): return date(value)
        case .dates(let values): return "(" + values.map(date).joined(separator: ", ") + ")"
        case .bool(let flag): return flag ? "1" : "0"
        case .url(let url): return safe(url.absoluteString)
        case .data(let data): return "<\(data.count) bytes>"
        }
    }
}
