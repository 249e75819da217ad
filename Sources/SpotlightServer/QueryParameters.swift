import Foundation
import SpotlightIndex
import SpotlightService

/// A request's query string, decoded strictly: `+` is a space, `%XX` a byte,
/// and the bytes must be UTF-8 (a query that is not gets `invalidRequest`
/// naming the parameter, instead of a silently mangled search).
///
/// ```swift
/// let query = try QueryParameters("q=caf%C3%A9+cr%C3%A8me&perApp=5")
/// query["q"]            // "café crème"
/// try query.integer("perApp", default: 3)   // 5
/// ```
struct QueryParameters: Sendable {
    private var values: [String: String] = [:]

    init(_ query: String?) throws {
        for pair in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try Self.decode(parts[0], name: "a parameter name")
            let value = parts.count > 1 ? try Self.decode(parts[1], name: name) : ""
            if values[name] == nil { values[name] = value }
        }
    }

    subscript(name: String) -> String? { values[name] }

    /// A required parameter.
    func required(_ name: String) throws -> String {
        guard let value = values[name] else { throw APIError(.invalidRequest, "the query parameter \(name) is required") }
        return value
    }

    /// An integer parameter, or `fallback` when absent.
    func integer(_ name: String, default fallback: Int) throws -> Int {
        guard let text = values[name] else { return fallback }
        guard let value = Int(text) else { throw APIError(.invalidRequest, "\(name) must be an integer, not \(text.debugDescription)") }
        return value
    }

    /// `near=LAT,LON` and `within=KM` as a search area; nil without `near`.
    func area() throws -> SearchArea? {
        guard let near = values["near"] else {
            if values["within"] != nil { throw APIError(.invalidRequest, "within needs near") }
            return nil
        }
        guard let center = GeoPoint(parsing: near) else {
            throw APIError(.invalidRequest, "near takes latitude,longitude in decimal degrees, such as 40.7194,-73.997; got \(near.debugDescription)")
        }
        var radius: Double?
        if let within = values["within"] {
            guard let kilometres = Double(within), kilometres.isFinite, kilometres > 0, kilometres <= 20_100 else {
                throw APIError(.invalidRequest, "within takes kilometres, more than 0 and at most 20,100; got \(within.debugDescription)")
            }
            radius = kilometres * 1_000
        }
        return SearchArea(center: center, radius: radius)
    }

    private static func decode(_ text: Substring, name: String) throws -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(Self.hexValue), let low = iterator.next().flatMap(Self.hexValue) else {
                    throw APIError(.invalidRequest, "\(name) has a malformed %-escape")
                }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw APIError(.invalidRequest, "\(name) is not valid UTF-8")
        }
        guard !decoded.unicodeScalars.contains(where: { $0.value == 0 }) else {
            throw APIError(.invalidRequest, "\(name) contains a NUL character")
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
