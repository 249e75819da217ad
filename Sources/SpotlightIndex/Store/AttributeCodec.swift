import Foundation

/// The binary form of an item's attributes in the `items.attributes` column.
///
/// Layout (all integers little-endian, lengths as LEB128 varints):
/// `version(1)` `count` then per attribute, sorted by name:
/// `name-length name kind payload`. Strings are UTF-8 with a length;
/// numbers carry a tag (0 = Int64, 1 = Double) and 8 bytes; dates are the
/// 8-byte bit pattern of `timeIntervalSinceReferenceDate`, so every value
/// comes back bit for bit. URLs keep their relative string and base.
enum AttributeCodec {
    static let version: UInt8 = 1

    enum Kind: UInt8 {
        case string = 1
        case strings, number, numbers, date, dates, bool, url, data
    }

    static func encode(_ attributes: [String: AttributeValue]) -> [UInt8] {
        var out: [UInt8] = [version]
        out.reserveCapacity(1_024)
        writeVarint(UInt64(attributes.count), &out)
        // Pairs sorted once (no second lookup per name).
        for (name, value) in attributes.sorted(by: { $0.key < $1.key }) {
            writeString(name, &out)
            switch value {
            case .string(let value):
                out.append(Kind.string.rawValue); writeString(value, &out)
            case .strings(let values):
                out.append(Kind.strings.rawValue); writeVarint(UInt64(values.count), &out)
                for value in values { writeString(value, &out) }
            case .number(let value):
                out.append(Kind.number.rawValue); writeNumber(value, &out)
            case .numbers(let values):
                out.append(Kind.numbers.rawValue); writeVarint(UInt64(values.count), &out)
                for value in values { writeNumber(value, &out) }
            case .date(let value):
                out.append(Kind.date.rawValue); writeFixed(value.timeIntervalSinceReferenceDate.bitPattern, &out)
            case .dates(let values):
                out.append(Kind.dates.rawValue); writeVarint(UInt64(values.count), &out)
                for value in values { writeFixed(value.timeIntervalSinceReferenceDate.bitPattern, &out) }
            case .bool(let value):
                out.append(Kind.bool.rawValue); out.append(value ? 1 : 0)
            case .url(let value):
                out.append(Kind.url.rawValue); writeString(value.relativeString, &out)
                writeString(value.baseURL?.absoluteString ?? "", &out)
            case .data(let value):
                out.append(Kind.data.rawValue); writeVarint(UInt64(value.count), &out); out.append(contentsOf: value)
            }
        }
        return out
    }

    struct DecodingError: Error, CustomStringConvertible {
        var description: String
    }

    /// Names to fetch, matched on a stored name's bytes as Core Spotlight
    /// matches `fetchAttributes` (the name, or the part before its first
    /// dot: ``StoredRow/isFetched(_:_:)``): an attribute passed over is
    /// never made into a `String`, nor hashed.
    ///
    /// ```swift
    /// let names = AttributeCodec.FetchedNames(["title", "authors"])
    /// names.keeps(Array("authors.persons".utf8)[...])   // true
    /// ```
    ///
    /// Made once per read, not per item (a system search's rows fetch ~30
    /// names: making their bytes for every item cost more than the
    /// attributes it passed over). The names are kept by length, so a
    /// stored name is compared with those of its own length only.
    struct FetchedNames: Sendable {
        /// Per length, the names of that length (longer ones in the last).
        private let byLength: [[[UInt8]]]

        init(_ names: Set<String>) {
            var byLength = [[[UInt8]]](repeating: [], count: Self.lengths + 1)
            for name in names { byLength[min(name.utf8.count, Self.lengths)].append(Array(name.utf8)) }
            self.byLength = byLength
        }

        /// Lengths with a list of their own; longer names share the last.
        private static let lengths = 64

        func keeps(_ name: ArraySlice<UInt8>) -> Bool {
            if matches(name, length: name.count) { return true }
            guard let dot = name.firstIndex(of: UInt8(ascii: ".")) else { return false }
            return matches(name, length: dot - name.startIndex)
        }

        /// Whether a name of `length` bytes is the start of `name`.
        private func matches(_ name: ArraySlice<UInt8>, length: Int) -> Bool {
            for candidate in byLength[min(length, Self.lengths)] where candidate.count == length {
                if name.prefix(length).elementsEqual(candidate) { return true }
            }
            return false
        }
    }

    /// The attributes in `bytes`; with `keeping`, only those it names, the
    /// others passed over unmade (still checked for length).
    static func decode(_ bytes: [UInt8], keeping: FetchedNames? = nil) throws -> [String: AttributeValue] {
        var reader = Reader(bytes: bytes)
        guard try reader.byte() == version else { throw DecodingError(description: "unknown attribute encoding version") }
        let count = try reader.count()
        var result: [String: AttributeValue] = [:]
        // Room for all of them even when some are passed over: growing a
        // dictionary from empty cost more than its spare slots.
        result.reserveCapacity(count)
        for _ in 0..<count {
            let nameBytes = try reader.take(try reader.count())
            guard let kind = Kind(rawValue: try reader.byte()) else { throw DecodingError(description: "unknown attribute kind") }
            if let keeping, !keeping.keeps(nameBytes) {
                try reader.skip(kind)
                continue
            }
            let name = try Reader.string(nameBytes)
            let value: AttributeValue
            switch kind {
            case .string: value = .string(try reader.string())
            case .strings: value = .strings(try (0..<reader.count()).map { _ in try reader.string() })
            case .number: value = .number(try reader.number())
            case .numbers: value = .numbers(try (0..<reader.count()).map { _ in try reader.number() })
            case .date: value = .date(try reader.date())
            case .dates: value = .dates(try (0..<reader.count()).map { _ in try reader.date() })
            case .bool: value = .bool(try reader.byte() != 0)
            case .url:
                let relative = try reader.string()
                let base = try reader.string()
                guard let url = URL(string: relative, relativeTo: base.isEmpty ? nil : URL(string: base)) else {
                    throw DecodingError(description: "stored URL does not parse")
                }
                value = .url(url)
            case .data:
                let length = try reader.count()
                value = .data(Data(try reader.take(length)))
            }
            result[name] = value
        }
        guard reader.isAtEnd else { throw DecodingError(description: "trailing bytes after attributes") }
        return result
    }

    // MARK: - Writing

    static func writeVarint(_ value: UInt64, _ out: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }

    static func writeFixed(_ value: UInt64, _ out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    static func writeString(_ value: String, _ out: inout [UInt8]) {
        var value = value
        value.withUTF8 { bytes in
            writeVarint(UInt64(bytes.count), &out)
            out.append(contentsOf: bytes)
        }
    }

    static func writeNumber(_ value: AttributeNumber, _ out: inout [UInt8]) {
        switch value {
        case .int(let int): out.append(0); writeFixed(UInt64(bitPattern: int), &out)
        case .double(let double): out.append(1); writeFixed(double.bitPattern, &out)
        }
    }

    // MARK: - Reading

    struct Reader {
        let bytes: [UInt8]
        var offset = 0
        var isAtEnd: Bool { offset == bytes.count }

        mutating func byte() throws -> UInt8 {
            guard offset < bytes.count else { throw DecodingError(description: "attributes end too soon") }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func varint() throws -> UInt64 {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let byte = try byte()
                guard shift < 64 else { throw DecodingError(description: "varint too long") }
                result |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return result }
                shift += 7
            }
        }

        /// A length or count, checked against what is left.
        mutating func count() throws -> Int {
            let value = try varint()
            guard value <= UInt64(bytes.count - offset) else { throw DecodingError(description: "length past the end of the attributes") }
            return Int(value)
        }

        mutating func take(_ length: Int) throws -> ArraySlice<UInt8> {
            guard length <= bytes.count - offset else { throw DecodingError(description: "attributes end too soon") }
            defer { offset += length }
            return bytes[offset..<(offset + length)]
        }

        mutating func fixed() throws -> UInt64 {
            let slice = try take(8)
            var value: UInt64 = 0
            for (index, byte) in slice.enumerated() { value |= UInt64(byte) << UInt64(index * 8) }
            return value
        }

        /// A stored string. Mostly ASCII: checked eight bytes at a time and
        /// made by the standard library's fast path; otherwise validated as
        /// UTF-8, so damaged bytes throw rather than come back repaired.
        mutating func string() throws -> String {
            try Self.string(try take(try count()))
        }

        /// A stored string's bytes as a `String` (``string()``).
        static func string(_ slice: ArraySlice<UInt8>) throws -> String {
            let string = slice.withUnsafeBufferPointer { buffer -> String? in
                Self.isASCII(UnsafeRawBufferPointer(buffer)) ? String(decoding: buffer, as: UTF8.self) : String(validating: buffer, as: UTF8.self)
            }
            guard let string else { throw DecodingError(description: "stored string is not UTF-8") }
            return string
        }

        @inline(__always)
        static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
            var high: UInt64 = 0
            var index = 0
            while index + 8 <= bytes.count {
                high |= bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                index += 8
            }
            while index < bytes.count {
                high |= UInt64(bytes[index])
                index += 1
            }
            return high & 0x8080_8080_8080_8080 == 0
        }

        mutating func number() throws -> AttributeNumber {
            switch try byte() {
            case 0: return .int(Int64(bitPattern: try fixed()))
            case 1: return .double(Double(bitPattern: try fixed()))
            default: throw DecodingError(description: "unknown number tag")
            }
        }

        mutating func date() throws -> Date {
            Date(timeIntervalSinceReferenceDate: Double(bitPattern: try fixed()))
        }

        /// Passes over a value of `kind`, as long as reading it would.
        mutating func skip(_ kind: Kind) throws {
            switch kind {
            case .string, .data: _ = try take(try count())
            case .strings: for _ in 0..<(try count()) { _ = try take(try count()) }
            case .number: _ = try number()
            case .numbers: for _ in 0..<(try count()) { _ = try number() }
            case .date: _ = try take(8)
            case .dates: _ = try take(8 * (try count()))
            case .bool: _ = try byte()
            case .url: for _ in 0..<2 { _ = try take(try count()) }
            }
        }
    }
}
