import Foundation
import Testing
import TestSupport
@testable import SpotlightIndex

@Suite(.serialized) struct CrashTests {
    /// A helper commits batches of 400 items with the round number as
    /// client state; it is killed with SIGKILL at varying moments, often in
    /// the middle of a batch. After each kill the store holds exactly the
    /// rounds its client state names: no partial batch, no lost one.
    @Test(.timeLimit(.minutes(10)))
    func aProcessKilledMidBatchLeavesWholeBatchesAndAConsistentState() throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanUp() }
        _ = try fileStore(dir)
        let batchSize = 400
        for (attempt, delay) in [0.0, 0.137, 0.291, 0.05].enumerated() {
            let before = try fileStore(dir).lastClientState().flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 0
            let helper = try HelperProcess(["batches", dir.url.path, String(batchSize)])
            #expect(helper.waitForLine { $0 == "committed \(before + 1)" }, "attempt \(attempt): \(helper.errorOutput)")
            Thread.sleep(forTimeInterval: delay)
            helper.kill()
            #expect(helper.process.terminationReason == .uncaughtSignal)

            let store = try fileStore(dir)
            let round = try #require(try store.lastClientState().flatMap { Int(String(decoding: $0, as: UTF8.self)) })
            #expect(round > before)
            let ids = try store.identifiers()
            #expect(ids.count == round * batchSize, "attempt \(attempt): \(ids.count) items for \(round) rounds")
            let rounds = Set(ids.map { $0.split(separator: "-")[0] })
            #expect(rounds == Set((1...round).map { "r\($0)" }))
            #expect(try store.search("round", limit: 100_000).count == round * batchSize)
            // The batch's writes were in an unlinked file, gone with the process.
            let folder = try #require(store.fileURL).deletingLastPathComponent().path
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy { !$0.hasPrefix(".batch-") })
        }
    }
}
