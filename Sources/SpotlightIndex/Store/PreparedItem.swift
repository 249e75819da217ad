import Foundation

/// An item checked against the limits and turned into what the tables
/// store: the attribute blob, its tokens for the ranked index and the
/// ranking signals. Preparing happens in the background (``ItemPreparation``),
/// outside the write lock.
struct PreparedItem: Sendable {
    var uid: String
    /// ``RankedDocument/uidHash(_:)`` of `uid`.
    var uidHash: UInt64
    var domain: String?
    var contentType: String?
    var expiration: Date?
    /// An update's attributes, merged into the stored item's by the writer (empty otherwise).
    var attributes: [String: AttributeValue]
    /// The attributes as stored (``BlobCompression`` of ``AttributeCodec``); an update's, unpacked until merged.
    var blob: [UInt8]
    /// Its text as the ranked index stores it (empty for an update, until merged).
    var tokens: DocumentTokens
    /// The item's ``NumericIndex`` entries.
    var numbers: [(String, Double)]
    var hint: Double
    var recency: Double?
    var isUpdate: Bool
    var removedAttributes: Set<String>

    /// What the ranked index holds of the item stored as the new row
    /// `rowid`: no engagement yet.
    func document(rowid: Int64, expires: Double) -> RankedDocument {
        RankedDocument(rowid: rowid, expires: expires, hint: hint, recency: recency, engagement: 0, engagedAt: 0,
                       tokens: tokens, uid: uid, uidHash: uidHash, numbers: numbers)
    }
}

/// Checks items against ``StoreLimits`` and Apple's attribute types.
struct ItemValidator: Sendable {
    var limits: StoreLimits
    /// How the ranked index weighs each column's tokens.
    var columnWeights = DocumentTokens.ColumnWeights.standard
    /// True to check and encode items only: no tokens, typed values or
    /// signals, the attributes left unpacked (an open batch keeps items so,
    /// ``BatchSpill``, and prepares them whole at its end).
    var checksOnly = false

    /// Attributes whose newest date is the item's recency.
    static let recencyAttributes = ["lastUsedDate", "contentModificationDate", "metadataModificationDate", "contentCreationDate", "addedDate"]

    /// Checks and encodes one item; `tokens` (reused between items of one
    /// thread) collects its text.
    func prepare(_ item: SearchableItem, tokens builder: DocumentTokens.Builder? = nil) throws -> PreparedItem {
        let uid = item.uniqueIdentifier
        try checkIdentifier(uid, what: "unique identifier", uid: uid)
        if let domain = item.domainIdentifier { try checkIdentifier(domain, what: "domain identifier", uid: uid) }
        if let type = item.contentType {
            if type.isEmpty || type.utf8.count > 255 || type.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F })
                || (!type.utf8.allSatisfy { $0 < 0x80 } && type.unicodeScalars.contains(where: { $0.properties.isWhitespace })) {
                throw refuse(uid, .invalidItem, "content type \(StoreName.quoted(type)) is not a uniform type identifier (1–255 bytes, no spaces or control characters)")
            }
        }
        if let date = item.expirationDate, !date.timeIntervalSinceReferenceDate.isFinite {
            throw refuse(uid, .invalidItem, "expiration date is not a finite date")
        }
        if item.attributes.count > limits.maxAttributesPerItem {
            throw refuse(uid, .limitExceeded, "has \(item.attributes.count) attributes; the limit is \(limits.maxAttributesPerItem) (StoreLimits.maxAttributesPerItem)")
        }
        for (name, value) in item.attributes { try check(name: name, value: value, uid: uid) }
        for name in item.removedAttributes { try checkName(name, uid: uid) }
        let encoded = AttributeCodec.encode(item.attributes)
        if encoded.count > limits.maxItemBytes {
            throw refuse(uid, .limitExceeded, "is \(encoded.count) bytes encoded; the limit is \(limits.maxItemBytes) (StoreLimits.maxItemBytes)")
        }
        if checksOnly {
            return PreparedItem(uid: uid, uidHash: 0, domain: item.domainIdentifier, contentType: item.contentType, expiration: item.expirationDate,
                                attributes: [:], blob: encoded, tokens: DocumentTokens(), numbers: [], hint: 0, recency: nil,
                                isUpdate: item.isUpdate, removedAttributes: item.removedAttributes)
        }
        let blob = item.isUpdate ? encoded : BlobCompression.pack(encoded)
        var tokens = DocumentTokens()
        if !item.isUpdate {
            let builder = builder ?? DocumentTokens.Builder(weights: columnWeights)
            builder.add(item.attributes)
            tokens = builder.finish()
        }
        let signals = Self.signals(item.attributes)
        return PreparedItem(
            uid: uid, uidHash: RankedDocument.uidHash(uid), domain: item.domainIdentifier, contentType: item.contentType, expiration: item.expirationDate,
            attributes: item.isUpdate ? item.attributes : [:], blob: blob,
            tokens: tokens,
            numbers: item.isUpdate ? [] : NumericIndex.entries(item.attributes, domain: item.domainIdentifier, contentType: item.contentType),
            hint: signals.hint, recency: signals.recency,
            isUpdate: item.isUpdate, removedAttributes: item.removedAttributes)
    }

    /// The item an update makes of the stored one, checked again as a whole.
    func merge(_ update: PreparedItem, into stored: SearchableItem) throws -> PreparedItem {
        var merged = stored
        for name in update.removedAttributes { merged.attributes[name] = nil }
        merged.attributes.merge(update.attributes) { _, new in new }
        if let domain = update.domain { merged.domainIdentifier = domain }
        if let type = update.contentType { merged.contentType = type }
        if let expiration = update.expiration { merged.expirationDate = expiration }
        merged.isUpdate = false
        return try prepare(merged)
    }

    /// The ranking hint (`rankingHint`, 0 without one) and the recency (the
    /// newest of ``recencyAttributes``' dates, seconds since 1970), in one
    /// pass over the attributes: a name is compared only when its value
    /// could be one of them, where six lookups hashed six names an item.
    static func signals(_ attributes: [String: AttributeValue]) -> (hint: Double, recency: Double?) {
        var hint = 0.0, latest: Double?
        for (name, value) in attributes {
            let seconds: Double?
            switch value {
            case .date(let date): seconds = date.timeIntervalSince1970
            case .dates(let dates): seconds = dates.max()?.timeIntervalSince1970
            case .number, .numbers, .bool:
                if name == "rankingHint" { hint = value.doubleValue ?? 0 }
                continue
            default: continue
            }
            if let seconds, seconds > latest ?? -.infinity, recencyAttributes.contains(name) { latest = seconds }
        }
        return (hint, latest)
    }

    // MARK: - Checks

    private func refuse(_ uid: String, _ code: SpotlightIndexError.Code, _ message: String) -> SpotlightIndexError {
        SpotlightIndexError(code, "item \(StoreName.quoted(uid)) refused: \(message)", subject: uid)
    }

    private func checkIdentifier(_ value: String, what: String, uid: String) throws {
        if value.isEmpty { throw refuse(uid, .invalidItem, "its \(what) is empty") }
        if value.utf8.count > limits.maxIdentifierBytes {
            throw refuse(uid, .limitExceeded, "its \(what) is \(value.utf8.count) bytes; the limit is \(limits.maxIdentifierBytes) (StoreLimits.maxIdentifierBytes)")
        }
        if value.utf8.contains(0) { throw refuse(uid, .invalidItem, "its \(what) contains a NUL character") }
    }

    private func checkName(_ name: String, uid: String) throws {
        _ = try checkedName(name, uid: uid)
    }

    /// Checks an attribute name; returns what it is (one vocabulary lookup).
    private func checkedName(_ name: String, uid: String) throws -> NameKind {
        if name.isEmpty { throw refuse(uid, .invalidItem, "an attribute name is empty") }
        if name.utf8.count > limits.maxAttributeNameBytes {
            throw refuse(uid, .limitExceeded, "attribute name \(StoreName.quoted(name)) is \(name.utf8.count) bytes; the limit is \(limits.maxAttributeNameBytes) (StoreLimits.maxAttributeNameBytes)")
        }
        if let kind = AttributeVocabulary.kindLookup[name] { return .vocabulary(kind) }
        if AttributeVocabulary.isPersonCompanion(name) || name == AttributeVocabulary.activityRecord { return .encoded }
        let valid = name.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F }
        if !valid {
            throw refuse(uid, .invalidItem, "attribute name \(StoreName.quoted(name)) is not a CSSearchableItemAttributeSet property, and a custom key may only use ASCII letters, digits and '_'")
        }
        if name.hasPrefix("kMD") {
            throw refuse(uid, .invalidItem, "attribute name \(StoreName.quoted(name)) starts with 'kMD', which is reserved")
        }
        return .custom
    }

    /// What a valid attribute name is.
    private enum NameKind {
        /// One of Apple's properties, with the kind its values must have (nil: any).
        case vocabulary(AttributeKind?)
        /// A person companion or the activity record: a data value.
        case encoded
        /// A custom key.
        case custom
    }

    private func check(name: String, value: AttributeValue, uid: String) throws {
        let nameKind = try checkedName(name, uid: uid)
        if case .encoded = nameKind, value.kind != .data {
            throw refuse(uid, .invalidItem, "attribute \(name) must be a data value (\(name == AttributeVocabulary.activityRecord ? "an encoded activity" : "encoded persons")), not a \(value.kind.rawValue)")
        }
        if case .vocabulary(let expected?) = nameKind {
            let ok = value.kind == expected || (expected == .number && value.kind == .bool)
            if !ok {
                throw refuse(uid, .invalidItem, "attribute \(name) must be a \(expected.rawValue) value, not a \(value.kind.rawValue)")
            }
        }
        func tooBig(_ size: Int) -> SpotlightIndexError {
            refuse(uid, .limitExceeded, "attribute \(name) is \(size) bytes; the limit is \(limits.maxAttributeBytes) (StoreLimits.maxAttributeBytes)")
        }
        func tooMany(_ count: Int) -> SpotlightIndexError {
            refuse(uid, .limitExceeded, "attribute \(name) has \(count) elements; the limit is \(limits.maxArrayElements) (StoreLimits.maxArrayElements)")
        }
        func notFinite() -> SpotlightIndexError {
            refuse(uid, .invalidItem, "attribute \(name) holds a number or date that is not finite")
        }
        switch value {
        case .string(let text):
            if text.utf8.count > limits.maxAttributeBytes { throw tooBig(text.utf8.count) }
        case .strings(let texts):
            if texts.count > limits.maxArrayElements { throw tooMany(texts.count) }
            let size = texts.reduce(0) { $0 + $1.utf8.count }
            if size > limits.maxAttributeBytes { throw tooBig(size) }
        case .data(let data):
            if data.count > limits.maxAttributeBytes { throw tooBig(data.count) }
        case .number(let number):
            if !number.doubleValue.isFinite { throw notFinite() }
        case .numbers(let numbers):
            if numbers.count > limits.maxArrayElements { throw tooMany(numbers.count) }
            if numbers.contains(where: { !$0.doubleValue.isFinite }) { throw notFinite() }
        case .date(let date):
            if !date.timeIntervalSinceReferenceDate.isFinite { throw notFinite() }
        case .dates(let dates):
            if dates.count > limits.maxArrayElements { throw tooMany(dates.count) }
            if dates.contains(where: { !$0.timeIntervalSinceReferenceDate.isFinite }) { throw notFinite() }
        case .url(let url):
            if url.absoluteString.utf8.count > limits.maxAttributeBytes { throw tooBig(url.absoluteString.utf8.count) }
        case .bool:
            break
        }
        if name == "rankingHint", let hint = value.doubleValue, !(0...100).contains(hint) {
            throw refuse(uid, .invalidItem, "rankingHint is \(hint); it must be between 0 and 100")
        }
    }
}
