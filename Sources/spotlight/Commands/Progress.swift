import Foundation

/// A progress bar on standard error, when it is a terminal.
final class Progress {
    private let total: Int
    private let label: String
    private let unit: String
    private let enabled = isatty(2) == 1
    private var shown = -1

    init(total: Int, label: String, unit: String) {
        self.total = max(1, total)
        self.label = label
        self.unit = unit
    }

    func update(_ done: Int) {
        guard enabled else { return }
        let percent = done * 100 / total
        guard percent != shown else { return }
        shown = percent
        let bar = String(repeating: "█", count: percent / 4) + String(repeating: "·", count: 25 - percent / 4)
        FileHandle.standardError.write(Data("\r\(label) \(bar) \(percent)% (\(done)/\(total) \(unit))".utf8))
    }

    func finish() {
        if enabled && shown >= 0 { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
