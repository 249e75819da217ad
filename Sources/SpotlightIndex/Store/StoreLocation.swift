public import Foundation

/// Where a store lives.
///
/// ```swift
/// let store = try SpotlightStore(bundleIdentifier: "com.example.notes")              // .automatic
/// let inDir = try SpotlightStore(bundleIdentifier: "com.example.notes",
///                                location: .directory(URL(fileURLWithPath: "/tmp/os")))
/// let scratch = try SpotlightStore(bundleIdentifier: "com.example.notes", location: .inMemory)
/// ```
public enum StoreLocation: Sendable, Hashable {
    /// `$OPENSPOTLIGHT_HOME`, else `$XDG_DATA_HOME/openspotlight`, else
    /// `~/.local/share/openspotlight`.
    case automatic
    /// A root directory of your choice, laid out as the automatic one.
    case directory(URL)
    /// A private in-memory store, gone when the last handle goes.
    case inMemory

    /// The root directory of `.automatic` in this environment.
    public static func automaticRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let home = environment["OPENSPOTLIGHT_HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home, isDirectory: true)
        }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("openspotlight", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".local/share/openspotlight", isDirectory: true)
    }

    /// `<root>/<bundle identifier>` as text, the folder of an app's stores; nil in memory.
    /// Joined as text rather than with URL's path appending, which validates
    /// each component: system search asks it for every store on every search.
    package func folderPath(of bundleIdentifier: String) -> String? {
        guard let root = rootDirectory?.path else { return nil }
        return (root.hasSuffix("/") ? root : root + "/") + bundleIdentifier
    }

    /// `<root>/<bundle identifier>/<index name>.sqlite` as text, a store's
    /// file; nil in memory. The names are not checked here.
    ///
    /// ```swift
    /// StoreLocation.directory(URL(fileURLWithPath: "/tmp/s")).filePath(of: "com.example.notes", index: "default")
    /// // "/tmp/s/com.example.notes/default.sqlite"
    /// ```
    package func filePath(of bundleIdentifier: String, index indexName: String) -> String? {
        folderPath(of: bundleIdentifier).map { $0 + "/" + indexName + ".sqlite" }
    }

    /// The root directory for this location; nil in memory.
    public var rootDirectory: URL? {
        switch self {
        case .automatic: Self.automaticRoot()
        case .directory(let url): url
        case .inMemory: nil
        }
    }
}

/// Validation of the two names that make a store's path.
///
/// A bundle identifier is reverse DNS: ASCII letters, digits, `-`, `_` and
/// `.`, not starting or ending with `.`, no empty component, at most 255
/// bytes. An index name is 1 to 128 characters with no `/`, `\`, NUL or
/// control character, not `.` or `..`, and not starting with `.`.
public enum StoreName {
    /// Longest bundle identifier, in bytes.
    public static let maxBundleIdentifierBytes = 255
    /// Longest index name, in UTF-8 bytes.
    public static let maxIndexNameBytes = 128

    /// Bundle identifiers the system keeps for itself (`public.web`: the
    /// public web index): no app's stores may be opened under them.
    public static let reservedBundleIdentifiers: Set<String> = ["public.web"]

    /// Throws ``SpotlightIndexErrorCode/invalidStoreName`` saying what is
    /// wrong; a reserved identifier (``reservedBundleIdentifiers``) is refused.
    public static func validateBundleIdentifier(_ value: String) throws {
        try validateBundleIdentifier(value, allowingReserved: false)
    }

    /// As ``validateBundleIdentifier(_:)``; the engine's own stores (an
    /// index name starting with `.`) may use a reserved identifier.
    static func validateBundleIdentifier(_ value: String, allowingReserved: Bool) throws {
        if !allowingReserved, reservedBundleIdentifiers.contains(value.lowercased()) {
            throw SpotlightIndexError(.invalidStoreName, "the bundle identifier \(quoted(value)) is reserved for the system (the public web index); choose your app's own")
        }
        func fail(_ why: String) -> SpotlightIndexError {
            SpotlightIndexError(.invalidStoreName, "invalid bundle identifier \(quoted(value)): \(why); use reverse DNS such as com.example.app")
        }
        if value.isEmpty { throw fail("it is empty") }
        if value.utf8.count > maxBundleIdentifierBytes { throw fail("it is longer than \(maxBundleIdentifierBytes) bytes") }
        for scalar in value.unicodeScalars {
            let ok = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "-" || scalar == "_" || scalar == "."
            if !ok { throw fail("character \(quoted(String(scalar))) is not allowed (only ASCII letters, digits, '-', '_' and '.')") }
        }
        if value.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            throw fail("it has an empty component (a leading, trailing or doubled '.')")
        }
    }

    /// Throws ``SpotlightIndexErrorCode/invalidStoreName`` saying what is wrong.
    public static func validateIndexName(_ value: String) throws {
        func fail(_ why: String) -> SpotlightIndexError {
            SpotlightIndexError(.invalidStoreName, "invalid index name \(quoted(value)): \(why)")
        }
        if value.isEmpty { throw fail("it is empty") }
        if value.utf8.count > maxIndexNameBytes { throw fail("it is longer than \(maxIndexNameBytes) bytes") }
        if value == "." || value == ".." { throw fail("it names a directory") }
        if value.hasPrefix(".") { throw fail("it starts with '.'") }
        // ASCII is composed, has no invisible characters and one script:
        // those checks (Unicode's tables, ICU's normalizer) are for others.
        let ascii = value.utf8.allSatisfy { $0 < 0x80 }
        for scalar in value.unicodeScalars {
            if scalar == "/" || scalar == "\\" { throw fail("it contains a path separator") }
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { throw fail("it contains a control character (U+\(hex(scalar)))") }
            if !ascii, scalar.properties.generalCategory == .format || scalar.properties.isDefaultIgnorableCodePoint {
                throw fail("it contains the invisible character U+\(hex(scalar)), which would make it look like another name")
            }
        }
        // Names that look alike must not name two stores.
        if let first = value.unicodeScalars.first, let last = value.unicodeScalars.last,
           first.properties.isWhitespace || last.properties.isWhitespace {
            throw fail("it starts or ends with a space; remove it")
        }
        if ascii { return }
        if value.precomposedStringWithCanonicalMapping.unicodeScalars.elementsEqual(value.unicodeScalars) == false {
            throw fail("it is not in Unicode's composed form (NFC); write it composed, as \(quoted(value.precomposedStringWithCanonicalMapping))")
        }
        let scripts = Set(value.unicodeScalars.compactMap(confusableScript))
        if scripts.count > 1 {
            throw fail("it mixes \(scripts.sorted().joined(separator: " and ")) letters, which look alike; use one script")
        }
    }

    /// Latin, Greek or Cyrillic for a letter of those scripts (whose letters look alike), else nil.
    static func confusableScript(_ scalar: Unicode.Scalar) -> String? {
        guard scalar.properties.isAlphabetic else { return nil }
        switch scalar.value {
        case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x1E00...0x1EFF, 0xFF21...0xFF3A, 0xFF41...0xFF5A: return "Latin"
        case 0x370...0x3FF, 0x1F00...0x1FFF: return "Greek"
        case 0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F: return "Cyrillic"
        default: return nil
        }
    }

    static func hex(_ scalar: Unicode.Scalar) -> String { String(format: "%04X", scalar.value) }

    static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars.prefix(80) {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out + (value.unicodeScalars.count > 80 ? "…\"" : "\"")
    }
}
