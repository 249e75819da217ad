import Foundation
import Testing
@testable import SpotlightIndex

@Suite struct BlobCompressionTests {
    static func lcg(_ seed: inout UInt64) -> UInt64 {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return seed >> 33
    }

    static let samples: [[UInt8]] = {
        var seed: UInt64 = 42
        let words = ["the", "package", "library", "python", "module", "data", "files", "for", "a", "and"]
        let text = (0..<1_000).map { _ in words[Int(lcg(&seed) % 10)] }.joined(separator: " ")   // ~5 KB: compressed
        return [
            Array(text.utf8),
            Array(repeating: 0x61, count: 10_000),                                // one long match
            (0..<5_000).map { _ in UInt8(truncatingIfNeeded: lcg(&seed)) },        // incompressible
            Array("abcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabc".utf8),
            Array(String(repeating: "x", count: 70_000).utf8) + Array(text.utf8),  // offsets past 64 KiB
            Array("short".utf8),
            [],
            overlappingRepeats(&seed),                                            // matches closer than their length
        ]
    }()

    /// Text that repeats itself at short distances (1–24 bytes back, up to
    /// 60 bytes long), so many matches overlap the bytes they copy.
    static func overlappingRepeats(_ seed: inout UInt64) -> [UInt8] {
        var out: [UInt8] = []
        while out.count < 20_000 {
            if out.count < 32 || lcg(&seed) % 3 == 0 {
                for _ in 0..<(1 + Int(lcg(&seed) % 6)) { out.append(UInt8(97 + lcg(&seed) % 26)) }
            } else {
                let distance = 1 + Int(lcg(&seed) % 24)
                for _ in 0..<(4 + Int(lcg(&seed) % 57)) { out.append(out[out.count - distance]) }
            }
        }
        return out
    }

    @Test(arguments: 0..<samples.count)
    func packedBlobsComeBackExactly(index: Int) throws {
        let raw = Self.samples[index]
        let packed = BlobCompression.pack(raw)
        #expect(try BlobCompression.unpack(packed) == raw)
        if raw.count >= BlobCompression.minimumToCompress && index != 2 {
            #expect(packed.first == BlobCompression.compressedTag)
            #expect(packed.count < raw.count / 2)
        }
    }

    @Test func incompressibleAndShortBlobsAreKeptAsTheyAre() {
        #expect(BlobCompression.pack(Self.samples[2]) == Self.samples[2])
        #expect(BlobCompression.pack(Self.samples[5]) == Self.samples[5])
    }

    @Test func damagedBlobsThrowAndNeverCrash() throws {
        let packed = BlobCompression.pack(Self.samples[0])
        var seed: UInt64 = 7
        var threw = 0
        for _ in 0..<2_000 {
            var damaged = packed
            for _ in 0..<(1 + Int(Self.lcg(&seed) % 4)) {
                damaged[1 + Int(Self.lcg(&seed) % UInt64(damaged.count - 1))] = UInt8(truncatingIfNeeded: Self.lcg(&seed))
            }
            if Self.lcg(&seed) % 3 == 0 { damaged.removeLast(Int(Self.lcg(&seed) % 20)) }
            do { _ = try BlobCompression.unpack(damaged) } catch { threw += 1 }
        }
        #expect(threw > 1_000)
        #expect(throws: BlobCompression.DamageError.self) { try BlobCompression.unpack([0xC1, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]) }
        #expect(throws: BlobCompression.DamageError.self) { try BlobCompression.unpack([0xC1, 10, 0x0F, 1, 2]) }
    }
}
