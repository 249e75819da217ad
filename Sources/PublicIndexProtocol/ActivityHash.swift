import Crypto
public import Foundation

/// The SHA-256 of an activity's canonical public form: all a device reveals
/// of an activity until enough distinct devices have donated it.
///
/// ```swift
/// let hash = ActivityHash(of: content)
/// print(hash.hex)          // 64 lowercase hex digits
/// try ActivityHash(hex: hash.hex) == hash   // true
/// ```
public struct ActivityHash: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The 32 bytes.
    public let bytes: [UInt8]

    /// The hash of these bytes (the canonical form, ``PublicActivityContent/canonicalForm``).
    public init(digesting data: some DataProtocol) {
        bytes = Array(SHA256.hash(data: data))
    }

    /// The hash of an activity's public content.
    public init(of content: PublicActivityContent) {
        self.init(digesting: content.canonicalForm)
    }

    /// Parses 64 hexadecimal digits (either case).
    /// - Throws: ``PublicIndexProtocolError`` `.invalidHash` otherwise.
    public init(hex: String) throws {
        guard let bytes = HexBytes.decode(hex, count: 32) else {
            throw PublicIndexProtocolError(.invalidHash, "\(HexBytes.quoted(hex)) is not a SHA-256 (64 hexadecimal digits)")
        }
        self.bytes = bytes
    }

    /// Internal: bytes already checked to be 32.
    init(checkedBytes: [UInt8]) { bytes = checkedBytes }

    /// The hash as 64 lowercase hexadecimal digits.
    public var hex: String { HexBytes.encode(bytes) }

    public var description: String { hex }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { try self.init(hex: text) } catch let error as PublicIndexProtocolError {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}

/// Lowercase hexadecimal, both ways.
package enum HexBytes {
    package static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Exactly `count` bytes from `2 × count` hex digits, else nil.
    package static func decode(_ text: String, count: Int) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count == count * 2 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        var index = 0
        while index < utf8.count {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A short, quoted, printable excerpt of untrusted text for an error message.
    package static func quoted(_ text: String) -> String {
        let excerpt = text.unicodeScalars.prefix(80).map { $0.properties.generalCategory == .control ? "?" : String($0) }.joined()
        return "\"" + excerpt + (text.unicodeScalars.count > 80 ? "…" : "") + "\""
    }
}
