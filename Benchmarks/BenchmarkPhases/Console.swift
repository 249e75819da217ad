import Foundation

/// Progress and errors go to stderr; stdout holds only the table (parent)
/// or the one result line (child).
package func log(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// `63666` → `63,666`.
package func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var out = ""
    for (index, character) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
        out.append(character)
    }
    return (value < 0 ? "-" : "") + out
}

/// A figure as the tables print it: three significant digits, thousands grouped.
package func formatted(_ value: Double) -> String {
    guard value.isFinite else { return "n/a" }
    let magnitude = abs(value)
    if magnitude >= 1_000 { return grouped(Int(value.rounded())) }
    if magnitude >= 100 { return String(format: "%.0f", value) }
    if magnitude >= 10 { return String(format: "%.1f", value) }
    if magnitude >= 1 { return String(format: "%.2f", value) }
    return String(format: "%.3f", value)
}
