package import Foundation

/// The engine's JSON for records that cross a store or a process boundary:
/// compact, keys sorted, slashes unescaped, so that equal values give equal bytes.
package enum CanonicalJSON {
    package static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}
