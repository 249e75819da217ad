import Foundation

/// Progress and errors go to stderr; stdout holds only the table (parent)
/// or the one result line (child).
func log(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// `63666` → `63,666`.
func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var out = ""
    for (index, character) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
        out.append(character)
    }
    return (value < 0 ? "-" : "") + out
}
