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
    public static func text(_ value: AttributeValue) -> String {
        func quoted(_ text: String) -> String { text.debugDescription }
        func date(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
        switch value {
        case .string(let text): return quoted(text)
        case .strings(let texts): return "(" + texts.map(quoted).joined(separator: ", ") + ")"
        case .number(let number): return number.description
        case .numbers(let numbers): return "(" + numbers.map(\.description).joined(separator: ", ") + ")"
        case .date(let value): return date(value)
        case .dates(let values): return "(" + values.map(date).joined(separator: ", ") + ")"
        case .bool(let flag): return flag ? "1" : "0"
        case .url(let url): return url.absoluteString
        case .data(let data): return "<\(data.count) bytes>"
        }
    }
}
