import Foundation
import FuzzTargets
import SpotlightIndex
import Testing

/// Every input kept under `Fuzz/Corpus/<target>/` — the seeds, and each
/// input that once crashed a reader or broke an invariant (`crash-*`) —
/// goes through its reader again on every test run.
@Suite struct FuzzRegressionTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus")

    static var inputs: [(String, String)] {
        FuzzTargets.names.flatMap { target in
            let directory = corpus.appendingPathComponent(target)
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return files.sorted().map { (target, directory.appendingPathComponent($0).path) }
        }
    }

    @Test func everyTargetHasSeeds() {
        for target in FuzzTargets.names where target != "segment" {
            #expect(Self.inputs.contains { $0.0 == target }, "\(target) has no inputs under Fuzz/Corpus")
        }
    }

    @Test(arguments: inputs)
    func keptInputsPassTheirReaders(target: String, file: String) throws {
        try FuzzTargets.run(target, try Data(contentsOf: URL(fileURLWithPath: file)))
    }

    @Test func segmentSeedsAndTheirDamagePass() throws {
        for seed in _SegmentFuzzing.seeds() {
            try FuzzTargets.run("segment", Data(seed))
            // Every byte of the small seed changed in turn: refused or read, never a crash.
            for offset in stride(from: 0, to: seed.count, by: max(1, seed.count / 400)) {
                var damaged = seed
                damaged[offset] ^= 0xFF
                try FuzzTargets.run("segment", Data(damaged))
            }
            try FuzzTargets.run("segment", Data(seed.prefix(seed.count / 2)))
        }
    }
}
