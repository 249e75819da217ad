import Corpora
import Foundation

/// One line of `debian-packages.jsonl.gz` (see the corpora README).
struct DebianPackage: Decodable, Sendable {
    /// UTF-8 bytes of the text both engines index.
    var rawTextBytes: Int64 {
        Int64((title?.utf8.count ?? 0) + (summary?.utf8.count ?? 0) + (description?.utf8.count ?? 0)
              + (keywords?.reduce(0) { $0 + $1.utf8.count } ?? 0))
    }

    var id: String
    var title: String?
    var summary: String?
    var description: String?
    var section: String?
    var keywords: [String]?
    var version: String?
    var maintainer: String?
    var installedSize: Int64?
    var homepage: String?
}

/// Reads the Debian corpus by piping it through `gzip -dc`.
enum DebianCorpus {
    static let fileName = "debian-packages.jsonl.gz"
    /// Packages in the corpus as built (the README's count).
    static let packageCount = 63_666

    /// The first `limit` packages of the file (all of them when it holds fewer).
    static func load(from directory: URL, limit: Int) throws -> [DebianPackage] {
        let file = directory.appendingPathComponent(fileName)
        guard FileManager.default.isReadableFile(atPath: file.path) else {
            throw BenchError.failed("cannot read \(file.path); pass --corpus-dir or run \(Corpora.buildCommand)")
        }
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gzip.arguments = ["gzip", "-dc", file.path]
        let pipe = Pipe()
        gzip.standardOutput = pipe
        gzip.standardError = FileHandle.standardError
        try gzip.run()

        let reader = pipe.fileHandleForReading
        let decoder = JSONDecoder()
        var packages: [DebianPackage] = []
        packages.reserveCapacity(min(limit, packageCount))
        var buffer: [UInt8] = []
        var lineNumber = 0
        var stoppedEarly = false

        func decodeLine(_ bytes: ArraySlice<UInt8>) throws {
            lineNumber += 1
            guard !bytes.isEmpty else { return }
            do {
                packages.append(try decoder.decode(DebianPackage.self, from: Data(bytes)))
            } catch {
                throw BenchError.failed("\(file.path) line \(lineNumber) is not a package: \(error)")
            }
        }

        reading: while true {
            guard let chunk = try reader.read(upToCount: 1 << 20), !chunk.isEmpty else { break }
            buffer.append(contentsOf: chunk)
            var start = buffer.startIndex
            while let newline = buffer[start...].firstIndex(of: 0x0A) {
                try decodeLine(buffer[start..<newline])
                start = newline + 1
                if packages.count >= limit {
                    stoppedEarly = true
                    break reading
                }
            }
            buffer.removeSubrange(buffer.startIndex..<start)
        }
        if !stoppedEarly && !buffer.isEmpty { try decodeLine(buffer[...]) }
        try? reader.close()
        if stoppedEarly && gzip.isRunning { gzip.terminate() }
        gzip.waitUntilExit()
        if !stoppedEarly && gzip.terminationStatus != 0 {
            throw BenchError.failed("gzip -dc \(file.path) failed with status \(gzip.terminationStatus)")
        }
        if packages.isEmpty { throw BenchError.failed("\(file.path) holds no packages") }
        return packages
    }
}
