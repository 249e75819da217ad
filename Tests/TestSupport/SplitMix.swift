/// A seeded generator of 64-bit values (SplitMix64), the same in every run:
/// random tests that are reproducible.
///
/// ```swift
/// var random = SplitMix(seed: 7)
/// let pick = Int(random.next() % 10)
/// let shuffled = [1, 2, 3].shuffled(using: &random)
/// ```
public struct SplitMix: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
