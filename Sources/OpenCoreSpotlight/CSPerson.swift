public import Foundation

/// A person in an attribute (`authors`, `primaryRecipients`, …), as Apple's `CSPerson`.
///
/// ```swift
/// let author = CSPerson(displayName: "Ada Lovelace", handles: ["ada@example.com"],
///                       handleIdentifier: "emailAddresses")
/// attributes.authors = [author]
/// ```
///
/// Free-text search and query strings see a person attribute as the
/// person's display name and handles.
open class CSPerson: NSObject, NSCopying, @unchecked Sendable {
    /// The name shown for the person.
    public let displayName: String?
    /// Phone numbers, email addresses or other handles.
    public let handles: [String]
    /// The Contacts key saying what the handles are (e.g. `CNContactEmailAddressesKey`).
    public let handleIdentifier: String
    /// The person's Contacts record identifier, if known.
    open var contactIdentifier: String?

    public init(displayName: String?, handles: [String], handleIdentifier: String) {
        self.displayName = displayName
        self.handles = handles
        self.handleIdentifier = handleIdentifier
    }

    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = CSPerson(displayName: displayName, handles: handles, handleIdentifier: handleIdentifier)
        copy.contactIdentifier = contactIdentifier
        return copy
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CSPerson else { return false }
        return displayName == other.displayName && handles == other.handles
            && handleIdentifier == other.handleIdentifier && contactIdentifier == other.contactIdentifier
    }

    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(displayName)
        hasher.combine(handles)
        hasher.combine(handleIdentifier)
        return hasher.finalize()
    }

    open override var description: String {
        "CSPerson(\(displayName ?? "nil"), \(handles))"
    }

    /// The stored form: what a person attribute keeps in the store.
    struct Stored: Codable, Hashable {
        var displayName: String?
        var handles: [String]
        var handleIdentifier: String
        var contactIdentifier: String?
    }

    var stored: Stored {
        Stored(displayName: displayName, handles: handles, handleIdentifier: handleIdentifier, contactIdentifier: contactIdentifier)
    }

    convenience init(_ stored: Stored) {
        self.init(displayName: stored.displayName, handles: stored.handles, handleIdentifier: stored.handleIdentifier)
        contactIdentifier = stored.contactIdentifier
    }
}
