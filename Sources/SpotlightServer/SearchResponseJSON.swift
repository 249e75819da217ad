import Foundation

/// `API.SearchResponse` written as JSON by hand, for `GET /v1/search` and
/// the live socket's answers (``LiveSearch``): the same document
/// `JSONEncoder` makes (keys sorted, absent optionals left out, slashes not
/// escaped), in one byte buffer. Every keystroke of every typist is one
/// such answer (~25 KB for 20 apps' 3 results), and `JSONEncoder`'s
/// containers took ~6% of the service's CPU under 16 typists (over the
/// live socket, ~0.3 ms of a keystroke's ~1.9 ms at the median).
///
/// `SearchResponseJSONTests` decodes what this writes and compares it with
/// the response, and fails when one of the types gains a field this does
/// not write.
///
/// ```swift
/// let body = try SearchResponseJSON.encode(response)   // [UInt8]
/// ```
enum SearchResponseJSON {
    /// The response's JSON; a number that is not finite throws, as `JSONEncoder` does.
    static func encode(_ response: API.SearchResponse) throws -> [UInt8] {
        var writer = JSONWriter()
        writer.bytes.reserveCapacity(4_096 + 1_024 * response.groups.count)
        try writer.searchResponse(response)
        return writer.bytes
    }

    /// A live search's answer, `{"id":7,"results":<SearchResponse>,"type":"results"}`
    /// (``LiveSearch``), as `JSONEncoder` would write it, in one buffer.
    static func encodeLiveResults(id: Int, _ response: API.SearchResponse) throws -> [UInt8] {
        var writer = JSONWriter()
        writer.bytes.reserveCapacity(4_096 + 1_024 * response.groups.count)
        try writer.object { object in
            object.field("id") { $0.integer(id) }
            try object.field("results") { try $0.searchResponse(response) }
            object.field("type") { $0.string("results") }
        }
        return writer.bytes
    }

    static func group(_ writer: inout JSONWriter, _ group: API.Group) throws {
        try writer.object { object in
            try object.field("app") { writer in
                try writer.object { app in
                    app.field("activityTypes") { $0.array(group.app.activityTypes) { $0.string($1) } }
                    app.field("bundleIdentifier") { $0.string(group.app.bundleIdentifier) }
                    app.field("displayName") { $0.string(group.app.displayName) }
                    try app.optional("icon", group.app.icon)
                    app.field("supportsSearchContinuation") { $0.bool(group.app.supportsSearchContinuation) }
                }
            }
            object.field("hasMoreResults") { $0.bool(group.hasMoreResults) }
            object.field("offersSearchInApp") { $0.bool(group.offersSearchInApp) }
            try object.field("results") { try $0.array(group.results, result) }
        }
    }

    static func result(_ writer: inout JSONWriter, _ result: API.Result) throws {
        try writer.object { object in
            object.field("actions") { writer in
                writer.array(result.actions) { writer, action in
                    writer.object { fields in
                        fields.field("kind") { $0.string(action.kind) }
                        fields.field("label") { $0.string(action.label) }
                        fields.field("uri") { $0.string(action.uri) }
                    }
                }
            }
            try object.optional("address", result.address)
            try object.optional("contentType", result.contentType)
            try object.optional("description", result.description)
            try object.optional("distance", result.distance)
            object.field("explanation") { $0.string(result.explanation) }
            try object.optional("latitude", result.latitude)
            try object.optional("longitude", result.longitude)
            try object.optional("price", result.price)
            try object.optional("rating", result.rating)
            try object.optional("ratingDescription", result.ratingDescription)
            object.field("reference") { $0.string(result.reference) }
            try object.field("score") { try $0.number(result.score) }
            try object.optional("thumbnail", result.thumbnail)
            try object.optional("thumbnailURL", result.thumbnailURL)
            object.field("title") { $0.string(result.title) }
        }
    }

    static func webResult(_ writer: inout JSONWriter, _ page: API.WebResult) throws {
        try writer.object { object in
            try object.optional("app", page.app)
            try object.optional("appMatch", page.appMatch)
            try object.optional("appName", page.appName)
            try object.optional("appStoreID", page.appStoreID)
            object.field("associatedApps") { $0.array(page.associatedApps) { $0.string($1) } }
            try object.optional("deepLink", page.deepLink)
            try object.optional("description", page.description)
            object.field("explanation") { $0.string(page.explanation) }
            try object.optional("imageURL", page.imageURL)
            try object.field("score") { try $0.number(page.score) }
            object.field("title") { $0.string(page.title) }
            object.field("url") { $0.string(page.url) }
        }
    }

    static func publicResult(_ writer: inout JSONWriter, _ found: API.PublicResult) throws {
        try writer.object { object in
            try object.optional("app", found.app)
            try object.optional("appMatch", found.appMatch)
            try object.optional("appName", found.appName)
            try object.optional("description", found.description)
            object.field("kind") { $0.string(found.kind) }
            try object.optional("publicApp", found.publicApp)
            try object.field("score") { try $0.number(found.score) }
            object.field("site") { $0.string(found.site) }
            object.field("title") { $0.string(found.title) }
            try object.optional("url", found.url)
            object.field("users") { $0.integer(found.users) }
        }
    }
}

extension JSONWriter {
    /// `response` as an object.
    mutating func searchResponse(_ response: API.SearchResponse) throws {
        try object { object in
            try object.field("groups") { try $0.array(response.groups, SearchResponseJSON.group) }
            object.field("problems") { $0.array(response.problems) { $0.string($1) } }
            try object.field("publicResults") { try $0.array(response.publicResults, SearchResponseJSON.publicResult) }
            object.field("query") { $0.string(response.query) }
            object.field("root") { $0.string(response.root) }
            try object.field("tookMilliseconds") { try $0.number(response.tookMilliseconds) }
            object.field("unavailableApps") { $0.array(response.unavailableApps) { $0.string($1) } }
            try object.field("web") { try $0.array(response.web, SearchResponseJSON.webResult) }
        }
    }
}

/// JSON written into one byte buffer, values one after another.
struct JSONWriter {
    var bytes: [UInt8] = []

    /// The fields of an object, written in the order given (the caller sorts them).
    struct Fields {
        var writer: JSONWriter
        var first = true

        mutating func field(_ name: StaticString, _ value: (inout JSONWriter) throws -> Void) rethrows {
            writer.bytes.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            first = false
            writer.bytes.append(UInt8(ascii: "\""))
            writer.bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            writer.bytes.append(UInt8(ascii: "\""))
            writer.bytes.append(UInt8(ascii: ":"))
            try value(&writer)
        }

        /// A field written only when there is a value, as `encodeIfPresent`.
        mutating func optional(_ name: StaticString, _ value: String?) throws {
            if let value { field(name) { $0.string(value) } }
        }

        mutating func optional(_ name: StaticString, _ value: Double?) throws {
            if let value { try field(name) { try $0.number(value) } }
        }
    }

    mutating func object(_ fields: (inout Fields) throws -> Void) rethrows {
        var object = Fields(writer: JSONWriter())
        swap(&object.writer.bytes, &bytes)
        defer { swap(&object.writer.bytes, &bytes) }
        try fields(&object)
        if object.first { object.writer.bytes.append(UInt8(ascii: "{")) }
        object.writer.bytes.append(UInt8(ascii: "}"))
    }

    mutating func array<Element>(_ elements: [Element], _ write: (inout JSONWriter, Element) throws -> Void) rethrows {
        bytes.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            try write(&self, element)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func bool(_ value: Bool) {
        let word: StaticString = value ? "true" : "false"
        bytes.append(contentsOf: UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
    }

    mutating func integer(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A finite number in the shortest form that reads back as the same
    /// `Double` (Swift's `description`: `0.5`, `1e-05`, `3.0`).
    mutating func number(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(value) is not a JSON number"))
        }
        bytes.append(contentsOf: value.description.utf8)
    }

    /// A string, with `"`, `\` and control characters escaped; `/` and
    /// everything past ASCII as it is (UTF-8).
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            // Runs of bytes that need no escape are copied whole.
            var run = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
                run = index + 1
                escape(byte)
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `byte`'s escape: `"`, `\`, `\n`, `\r`, `\t` by name, other control characters as `\u00XX`.
    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
        case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
        case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
        case UInt8(ascii: "\r"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
        case UInt8(ascii: "\t"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
        default:
            let hex: StaticString = "0123456789abcdef"
            bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                      hex.utf8Start[Int(byte >> 4)], hex.utf8Start[Int(byte & 0xF)]]
        }
    }
}
