// §10–§11 of the spec: constants with Apple's values, and the two error
// types with Apple's codes, initializers and pattern matching.
#if canImport(CoreSpotlight)
import CoreSpotlight
#else
import OpenCoreSpotlight
#endif
import Foundation
import Testing

extension AppleAPIConformance {
    /// §10: the constants real code compares against literally.
    @Test(arguments: [
        (CSSearchableItemActionType, "com.apple.corespotlightitem"),
        (CSSearchableItemActivityIdentifier, "kCSSearchableItemActivityIdentifier"),
        (CSQueryContinuationActionType, "com.apple.corespotlightquerycontinuation"),
        (CSSearchQueryString, "kCSSearchQueryString"),
        (CSActionIdentifier, "kCSActionIdentifier"),
    ])
    func constants(value: String, expected: String) {
        #expect(value == expected)
    }

    @Test func otherConstants() {
        let mailboxes: [String] = [CSMailboxInbox, CSMailboxDrafts, CSMailboxSent, CSMailboxJunk, CSMailboxTrash, CSMailboxArchive]
        #expect(Set(mailboxes).count == 6)
        let _: Double = CoreSpotlightVersionNumber
        let _: NSAttributedString.Key = CSSuggestionHighlightAttributeName
        #expect(CoreSpotlightAPIVersion == 40)
        #expect(!CoreSpotlightVersionString.isEmpty)
    }

    /// §11: the index errors' codes, and Apple's ways of making and matching them.
    @Test(arguments: [
        (CSIndexError.unknownError, -1), (CSIndexError.indexUnavailableError, -1000), (CSIndexError.invalidItemError, -1001),
        (CSIndexError.invalidClientStateError, -1002), (CSIndexError.remoteConnectionError, -1003), (CSIndexError.quotaExceeded, -1004),
        (CSIndexError.indexingUnsupported, -1005), (CSIndexError.mismatchedClientState, -1006),
    ])
    func indexErrorCodes(code: CSIndexError.Code, value: Int) {
        #expect(code.rawValue == value)
        let error: any Error = CSIndexError(code)
        #expect((error as NSError).code == value && (error as NSError).domain == CSIndexErrorDomain)
        switch error {
        case code: break
        default: Issue.record("\(code) does not match its own error")
        }
    }

    @Test(arguments: [
        (CSSearchQueryError.unknown, -2000), (CSSearchQueryError.indexUnreachable, -2001),
        (CSSearchQueryError.invalidQuery, -2002), (CSSearchQueryError.cancelled, -2003),
    ])
    func queryErrorCodes(code: CSSearchQueryError.Code, value: Int) {
        #expect(code.rawValue == value)
        let error = CSSearchQueryError(code, userInfo: [NSLocalizedDescriptionKey: "why"])
        #expect(error.errorCode == value && error.code == code && CSSearchQueryError.errorDomain == CSSearchQueryErrorDomain)
        #expect(error.userInfo[NSLocalizedDescriptionKey] as? String == "why")
    }
}
