import Foundation

extension SegmentFormat {
    /// The Float64 tables (format 18): each document's signals and the
    /// typed values, stored in whichever of these is smallest, every one
    /// lossless:
    ///
    /// - ``FloatTable/Mode/raw``: 8 bytes a value, or one value for all
    ///   (a collapsed section: the header's ``constantSectionsOffset``);
    /// - ``FloatTable/Mode/integers``: when every value is a whole number
    ///   (or NaN), an Int64 base, then each value packed as `value − base +
    ///   1` (0 for NaN) in the bits the largest needs;
    /// - ``FloatTable/Mode/palette``: at most ``paletteLimit`` distinct
    ///   values, their count (UInt64) and the values (ascending by bits),
    ///   then each value's index packed.
    ///
    /// The mode is a header byte a section (``floatModesOffset``), the
    /// packed width the section's byte at ``packedWidthsOffset``. At
    /// 63,666 items the metadata factor (two values) went from 509 KB to
    /// 8 KB, the recency dates (whole seconds) from 509 to 119 KB, the
    /// typed values from 1.02 MB to 0.48.
    ///
    /// ```swift
    /// var stats = SegmentFormat.FloatStats()
    /// for value in [1.5, 2.5, 1.5] { stats.add(value) }
    /// stats.encoding(collapsible: true)   // .palette([1.5, 2.5]) in 1 bit a value
    /// ```
    static let floatSections: [Section] = collapsibleSections + [.numberValues]

    /// One byte a section (in ``Section`` order, 37 bytes): a Float64
    /// section's ``FloatTable/Mode``, 0 for every other section.
    static let floatModesOffset = 424
    /// The most distinct values a palette holds.
    static let paletteLimit = 256

    /// What a Float64 section's values are, gathered one by one: enough
    /// to choose its encoding (``encoding(collapsible:)``), the same
    /// however the values come (a flush's arrays, a merge's inputs).
    @_spi(Inspection) public struct FloatStats {
        private(set) var count = 0
        private var first: UInt64?
        private var constant = true
        /// The distinct values' bits, until there are more than a palette holds.
        private var distinct: Set<UInt64>? = []
        private var integral = true
        private var smallest = Int64.max, largest = Int64.min

        @_spi(Inspection) public init() {}

        @_spi(Inspection) public mutating func add(_ value: Double) {
            count += 1
            let bits = value.bitPattern
            if let first { constant = constant && first == bits } else { first = bits }
            if distinct != nil {
                distinct!.insert(bits)
                if distinct!.count > SegmentFormat.paletteLimit { distinct = nil }
            }
            guard integral, !value.isNaN else { return }
            // Whole, exactly an Int64 (within ±2⁵³), and not −0 (whose sign would be lost).
            guard value.isFinite, value.rounded(.towardZero) == value, abs(value) <= 9_007_199_254_740_992,
                  !(value == 0 && value.sign == .minus) else {
                integral = false
                return
            }
            let whole = Int64(value)
            (smallest, largest) = (min(smallest, whole), max(largest, whole))
        }

        /// The smallest encoding of the values: collapsed to one when they
        /// are all one and `collapsible` (a per-document section), else
        /// the first of raw, integers and palette in that order that no
        /// other is smaller than.
        @_spi(Inspection) public func encoding(collapsible: Bool) -> FloatEncoding {
            if collapsible, constant, let first { return .collapsed(Double(bitPattern: first)) }
            var best = FloatEncoding.raw, size = 8 * count
            if integral {
                // Codes 1 ... largest − smallest + 1 (none when every value is NaN), 0 for NaN.
                let span = smallest <= largest ? UInt64(bitPattern: largest &- smallest) &+ 1 : 0
                let base = smallest <= largest ? smallest : 0
                let width = SegmentFormat.packedWidth(maximum: span)
                if span < 1 << 53, width <= SegmentFormat.maxPackedWidth, 8 + SegmentFormat.packedSize(count: count, width: width) < size {
                    best = .integers(base: base, width: width)
                    size = 8 + SegmentFormat.packedSize(count: count, width: width)
                }
            }
            if let distinct, !distinct.isEmpty {
                let width = SegmentFormat.packedWidth(maximum: UInt64(distinct.count - 1))
                let paletteSize = 8 + 8 * distinct.count + SegmentFormat.packedSize(count: count, width: width)
                if paletteSize < size { best = .palette(distinct.sorted().map { Double(bitPattern: $0) }, width: width) }
            }
            return best
        }
    }

    /// How a Float64 section is written (``FloatStats/encoding(collapsible:)``).
    @_spi(Inspection) public enum FloatEncoding: Equatable {
        case raw
        case collapsed(Double)
        case integers(base: Int64, width: Int)
        case palette([Double], width: Int)

        @_spi(Inspection) public static func == (a: Self, b: Self) -> Bool {
            switch (a, b) {
            case (.raw, .raw): true
            case (.collapsed(let x), .collapsed(let y)): x.bitPattern == y.bitPattern
            case (.integers(let x, let v), .integers(let y, let w)): x == y && v == w
            case (.palette(let x, let v), .palette(let y, let w)): x.map(\.bitPattern) == y.map(\.bitPattern) && v == w
            default: false
            }
        }
    }
}

/// Where a Float64 section lies and how it is stored (``SegmentFormat/floatSections``):
/// its values read in place. 24 bytes: a segment holds one a section.
struct FloatTable: BitwiseCopyable {
    enum Mode: UInt8 {
        /// 8 bytes a value, or one for all (collapsed).
        case raw = 0
        /// A base, then `value − base + 1` packed (0: NaN).
        case integers = 1
        /// The distinct values, then an index a value packed.
        case palette = 2
    }

    /// Raw: the first value; otherwise the packed codes.
    let start: Int
    /// Raw: the stride (8, or 0 for a collapsed section); integers: the
    /// value of code 1 (an Int64); palette: where its values start.
    let extra: Int
    let paletteCount: Int32
    let mode: Mode
    let width: UInt8

    /// A raw section at `start` (`stride` 8, or 0 collapsed).
    init(raw start: Int, stride: Int) {
        (self.start, extra, paletteCount, mode, width) = (start, stride, 0, .raw, 0)
    }

    /// An encoded section lying at `section` (its base or palette first), checked to hold `count` values.
    init(_ mode: Mode, section: Range<Int>, width: Int, count: Int, in bytes: UnsafeRawBufferPointer) throws(SegmentError) {
        guard mode != .raw, section.count >= 8, width <= SegmentFormat.maxPackedWidth else { throw .corrupt("a Float64 table's header") }
        (self.mode, self.width) = (mode, UInt8(width))
        let head = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: section.lowerBound, as: UInt64.self))
        if mode == .integers {
            (extra, paletteCount, start) = (Int(Int64(bitPattern: head)), 0, section.lowerBound + 8)
        } else {
            guard head >= 1, head <= UInt64(SegmentFormat.paletteLimit), width <= 8 else { throw .corrupt("a palette of \(head) values") }
            (extra, paletteCount) = (section.lowerBound + 8, Int32(head))
            start = extra + 8 * Int(head)
        }
        guard section.upperBound - start >= SegmentFormat.packedSize(count: count, width: width) else { throw .corrupt("a Float64 table too short") }
    }

    /// The bytes holding values `indices` (for releasing what was read).
    func byteRange(_ indices: Range<Int>) -> Range<Int> {
        mode == .raw ? (start + extra * indices.lowerBound)..<(start + extra * indices.upperBound)
            : PackedTable(start: start, width: Int(width)).byteRange(indices)
    }

    /// Value `index` (below the section's count).
    @inline(__always)
    func value(_ index: Int, in bytes: UnsafeRawBufferPointer) -> Double {
        switch mode {
        case .raw:
            return Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start &+ extra &* index, as: UInt64.self)))
        case .integers:
            let code = PackedTable(start: start, width: Int(width)).value(index, in: bytes)
            return code == 0 ? .nan : Double(Int64(extra) &+ Int64(bitPattern: code) &- 1)
        case .palette:
            // A damaged index past the palette reads its last value.
            let slot = min(Int(PackedTable(start: start, width: Int(width)).value(index, in: bytes)), Int(paletteCount) - 1)
            return Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: extra &+ 8 &* slot, as: UInt64.self)))
        }
    }
}

extension SegmentEncoder.SectionWriter {
    /// Float64 section `section` of `values` in its smallest encoding
    /// (``SegmentFormat/FloatStats``); collapsed only where the format
    /// allows it (``SegmentFormat/collapsibleSections``).
    mutating func floats(_ section: SegmentFormat.Section, _ values: some Collection<Double>) {
        var stats = SegmentFormat.FloatStats()
        for value in values { stats.add(value) }
        var writer = beginFloats(section, stats.encoding(collapsible: SegmentFormat.collapsibleSections.contains(section)))
        for value in values { writer.add(value, to: &self) }
        writer.finish(into: &self)
    }

    /// Begins Float64 section `section` written as `encoding`: its values
    /// go through the returned writer, then ``FloatWriter/finish(into:)``.
    mutating func beginFloats(_ section: SegmentFormat.Section, _ encoding: SegmentFormat.FloatEncoding) -> FloatWriter {
        begin(section)
        switch encoding {
        case .raw:
            return FloatWriter(encoding: encoding, bits: nil, palette: [:])
        case .collapsed(let value):
            collapsed(section, to: value)
            return FloatWriter(encoding: encoding, bits: nil, palette: [:])
        case .integers(let base, let width):
            floatModes[section.rawValue] = FloatTable.Mode.integers.rawValue
            packedWidths[section.rawValue] = UInt8(width)
            writer.append(base)
            return FloatWriter(encoding: encoding, bits: SegmentEncoder.PackedBits(width: width), palette: [:])
        case .palette(let values, let width):
            floatModes[section.rawValue] = FloatTable.Mode.palette.rawValue
            packedWidths[section.rawValue] = UInt8(width)
            writer.append(UInt64(values.count))
            for value in values { writer.append(value) }
            let slots = Dictionary(uniqueKeysWithValues: values.enumerated().map { ($0.element.bitPattern, UInt64($0.offset)) })
            return FloatWriter(encoding: encoding, bits: SegmentEncoder.PackedBits(width: width), palette: slots)
        }
    }

    /// A Float64 section's values on their way, as its encoding stores them.
    struct FloatWriter {
        let encoding: SegmentFormat.FloatEncoding
        var bits: SegmentEncoder.PackedBits?
        let palette: [UInt64: UInt64]
        private var raw = SegmentEncoder.Chunk<Double>()

        init(encoding: SegmentFormat.FloatEncoding, bits: SegmentEncoder.PackedBits?, palette: [UInt64: UInt64]) {
            (self.encoding, self.bits, self.palette) = (encoding, bits, palette)
        }

        mutating func add(_ value: Double, to out: inout SegmentEncoder.SectionWriter) {
            switch encoding {
            case .raw: raw.add(value, to: &out)
            case .collapsed: break
            case .integers(let base, _):
                bits!.add(value.isNaN ? 0 : UInt64(bitPattern: Int64(value) &- base) &+ 1, to: &out)
            case .palette:
                bits!.add(palette[value.bitPattern]!, to: &out)
            }
        }

        mutating func finish(into out: inout SegmentEncoder.SectionWriter) {
            raw.finish(into: &out)
            bits?.finish(into: &out)
        }
    }
}
