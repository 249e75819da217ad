// A second process for the engine's tests: crash-safety and two writers.
//
//   spotlight-store-helper batches DIR SIZE        commits batches of SIZE items forever,
//                                                  printing "committed N" after batch N
//   spotlight-store-helper writer DIR NAME COUNT   indexes NAME-0 … NAME-(COUNT-1), ten per call
//   spotlight-store-helper hold-lock DIR SECONDS   holds the store's write lock, printing "locked"
import Foundation
import GRDB
import SpotlightIndex

/// Writes a line to standard output at once (no buffering: the tests wait for it).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
let arguments = CommandLine.arguments
func store(_ dir: String) throws -> SpotlightStore {
    var options = StoreOptions()
    options.busyTimeout = 30
    return try SpotlightStore(bundleIdentifier: "org.openspotlight.tests", indexName: "shared",
                              location: .directory(URL(fileURLWithPath: dir)), options: options)
}

func item(_ id: String, round: Int) -> SearchableItem {
    SearchableItem(uniqueIdentifier: id, attributes: [
        "title": .string("Item \(id) of round \(round)"),
        "textContent": .string(String(repeating: "filler words to make the batch large ", count: 20)),
    ])
}

do {
    switch arguments.dropFirst().first {
    case "batches":
        let s = try store(arguments[2])
        let size = Int(arguments[3])!
        var round = (try s.lastClientState()).flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 0
        while true {
            round += 1
            try s.beginBatch()
            try s.index((0..<size).map { item("r\(round)-\($0)", round: round) })
            try s.endBatch(clientState: Data(String(round).utf8))
            say("committed \(round)")
        }
    case "writer":
        let s = try store(arguments[2])
        let name = arguments[3]
        let count = Int(arguments[4])!
        for start in stride(from: 0, to: count, by: 10) {
            try s.index((start..<min(count, start + 10)).map { item("\(name)-\($0)", round: 0) })
        }
        say("done \(name)")
    case "hold-lock":
        let s = try store(arguments[2])
        let path = s.fileURL!.path
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            say("locked")
            Thread.sleep(forTimeInterval: Double(arguments[3])!)
            try db.execute(sql: "COMMIT")
        }
    default:
        FileHandle.standardError.write(Data("usage: spotlight-store-helper batches|writer|hold-lock …\n".utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("spotlight-store-helper: \(error)\n".utf8))
    exit(1)
}
