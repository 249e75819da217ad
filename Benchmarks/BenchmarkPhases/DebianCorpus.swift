import Corpora
package import Foundation

/// One line of `debian-packages.jsonl.gz` (see the corpora README).
package struct DebianPackage: Decodable, Sendable {
    /// UTF-8 bytes of the text both engines index.
    package var rawTextBytes: Int64 {
        Int64((title?.utf8.count ?? 0) + (summary?.utf8.count ?? 0) + (description?.utf8.count ?? 0)
              + (keywords?.reduce(0) { $0 + $1.utf8.count } ?? 0))
    }

    package var id: String
    package var title: String?
    package var summary: String?
    package var description: String?
    package var section: String?
    package var keywords: [String]?
    package var version: String?
    package var maintainer: String?
    package var installedSize: Int64?
    package var homepage: String?
}

/// Reads the Debian corpus by piping it through `gzip -dc`.
package enum DebianCorpus {
    package static let fileName = "debian-packages.jsonl.gz"
    /// Packages in the corpus as built (the README's count).
    package static let packageCount = 63_666

    /// The first `limit` packages of the file (all of them when it holds fewer).
    package static func load(from directory: URL, limit: Int) throws -> [DebianPackage] {
        let reader = try Reader(directory: directory)
        var packages: [DebianPackage] = []
        packages.reserveCapacity(min(limit, packageCount))
        while packages.count < limit, let package = try reader.next() { packages.append(package) }
        try reader.finish()
        if packages.isEmpty { throw BenchError.failed("\(reader.file.path) holds no packages") }
        return packages
    }

    /// The file's packages one at a time, through `gzip -dc`, holding
    /// ``readSize`` bytes of it and the line they end in: an index phase
    /// reads its items as it goes, as Tantivy's driver does, instead of
    /// holding the corpus.
    package final class Reader {
        let file: URL
        private let gzip = Process()
        private let output: FileHandle
        private let decoder = JSONDecoder()
        private var buffer: [UInt8] = []
        private var start = 0
        private var lineNumber = 0
        private var ended = false

        /// Bytes read from gzip at a time: what a pipe holds. Reads of a
        /// megabyte kept ~2 MB of buffers, counted in the index phase's
        /// peak RSS as if the engine held them (Tantivy's driver reads
        /// its items file through Python's 8 KB buffer).
        static let readSize = 1 << 16

        init(directory: URL) throws {
            file = directory.appendingPathComponent(DebianCorpus.fileName)
            guard FileManager.default.isReadableFile(atPath: file.path) else {
                throw BenchError.failed("cannot read \(file.path); pass --corpus-dir or run \(Corpora.buildCommand)")
            }
            gzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            gzip.arguments = ["gzip", "-dc", file.path]
            let pipe = Pipe()
            gzip.standardOutput = pipe
            gzip.standardError = FileHandle.standardError
            try gzip.run()
            output = pipe.fileHandleForReading
        }

        deinit { if gzip.isRunning { gzip.terminate() } }

        /// The next package, or nil at the end of the file.
        func next() throws -> DebianPackage? {
            while true {
                if let newline = buffer[start...].firstIndex(of: 0x0A) {
                    let line = buffer[start..<newline]
                    start = newline + 1
                    if let package = try decode(line) { return package }
                    continue
                }
                if ended {
                    let rest = buffer[start...]
                    start = buffer.endIndex
                    return rest.isEmpty ? nil : try decode(rest)
                }
                buffer.removeSubrange(..<start)
                start = 0
                if let chunk = try output.read(upToCount: Self.readSize), !chunk.isEmpty { buffer.append(contentsOf: chunk) } else { ended = true }
            }
        }

        /// Stops reading; checks that gzip succeeded when the file was read to its end.
        func finish() throws {
            try? output.close()
            let whole = ended && start == buffer.endIndex
            if !whole, gzip.isRunning { gzip.terminate() }
            gzip.waitUntilExit()
            if whole, gzip.terminationStatus != 0 {
                throw BenchError.failed("gzip -dc \(file.path) failed with status \(gzip.terminationStatus)")
            }
        }

        private func decode(_ bytes: ArraySlice<UInt8>) throws -> DebianPackage? {
            lineNumber += 1
            guard !bytes.isEmpty else { return nil }
            do {
                return try decoder.decode(DebianPackage.self, from: Data(bytes))
            } catch {
                throw BenchError.failed("\(file.path) line \(lineNumber) is not a package: \(error)")
            }
        }
    }
}
