import Foundation

extension SegmentFormat {
    /// A term's or block's maximum (a bound a search prunes by) in 2
    /// bytes, rounded up so that it never falls below what it bounds: 0,
    /// infinity, or a positive Float32 between 2⁻¹⁴ and 2¹⁸ with 11 bits
    /// of its mantissa (a bound at most 0.05% loose). A negative maximum
    /// is stored as 0, which bounds it.
    ///
    /// The precision matters: with bfloat16's 7 bits (0.8%), one- and
    /// two-letter prefixes at 63,666 items took twice as long at p99
    /// (`li` 0.11 → 0.25 ms): their best scores lie close together, and
    /// blocks whose maximum was just below the page's last score were no
    /// longer passed over.
    ///
    /// ```swift
    /// let stored = SegmentFormat.Maximum(roundingUp: 1.2345)
    /// stored.value   // 1.2348632812…: the next 2-byte value up
    /// ```
    @_spi(Inspection) public struct Maximum: Equatable, Sendable, BitwiseCopyable {
        /// 0 is 0, ``infinity`` infinity; any other is a Float32's bits
        /// past ``smallest``'s, shifted right by ``droppedBits``, plus one.
        @_spi(Inspection) public let bits: UInt16

        static let droppedBits: UInt32 = 12
        /// 2⁻¹⁴'s bits: the smallest positive value stored, code 1.
        static let smallest: UInt32 = (127 - 14) << 23
        static let infinity: UInt16 = .max
        /// What a code past 0 adds its shifted bits to.
        private static let base = smallest &- (1 << droppedBits)

        @_spi(Inspection) public init(bits: UInt16) { self.bits = bits }

        /// The smallest 2-byte maximum not below `value`.
        @_spi(Inspection) public init(roundingUp value: Double) {
            guard value > 0 else {
                bits = value.isNaN ? Self.infinity : 0
                return
            }
            var single = Float(value)
            if Double(single) < value { single = single.nextUp }
            let pattern = single.bitPattern
            guard pattern > Self.smallest else {
                bits = 1
                return
            }
            let offset = pattern - Self.smallest
            let code = UInt64(offset >> Self.droppedBits) + (offset & (1 << Self.droppedBits - 1) != 0 ? 1 : 0) + 1
            bits = code >= UInt64(Self.infinity) ? Self.infinity : UInt16(code)
        }

        /// The maximum as a Float32: exactly the stored value.
        @_spi(Inspection) @inline(__always) public var float: Float {
            if bits == 0 { return 0 }
            if bits == Self.infinity { return .infinity }
            return Float(bitPattern: Self.base &+ UInt32(bits) << Self.droppedBits)
        }

        @_spi(Inspection) @inline(__always) public var value: Double { Double(float) }
    }
}
