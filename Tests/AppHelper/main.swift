// openspotlight-app-helper: an app of its own process, for the tests that
// need a write from another process. It writes through OpenCoreSpotlight,
// as an app does, then exits 0 (or 1, printing the error).
//
//   openspotlight-app-helper BUNDLE INDEX index ID TITLE [DOMAIN]
//   openspotlight-app-helper BUNDLE INDEX update ID TITLE
//   openspotlight-app-helper BUNDLE INDEX delete ID
//   openspotlight-app-helper BUNDLE INDEX delete-domain DOMAIN
//   openspotlight-app-helper BUNDLE INDEX delete-all
//   openspotlight-app-helper BUNDLE INDEX batch STATE NEW_ID NEW_TITLE DELETED_ID
//   openspotlight-app-helper BUNDLE - donate TITLE PERSISTENT_ID
//   openspotlight-app-helper BUNDLE - delete-activity PERSISTENT_ID
//
// Stores live under $OPENSPOTLIGHT_HOME.
import Foundation
import OpenCoreSpotlight
import UniformTypeIdentifiers

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: openspotlight-app-helper BUNDLE INDEX OPERATION [ARGUMENTS]\n".utf8))
    exit(2)
}
OpenSpotlightConfiguration.configure(bundleIdentifier: arguments[0])
let index = CSSearchableIndex(name: arguments[1])
let operation = arguments[2]
let rest = Array(arguments.dropFirst(3))

func item(_ id: String, _ title: String, domain: String?) -> CSSearchableItem {
    let attributes = CSSearchableItemAttributeSet(contentType: .text)
    attributes.title = title
    return CSSearchableItem(uniqueIdentifier: id, domainIdentifier: domain, attributeSet: attributes)
}

/// Waits for a completion handler; the process's straight-line code.
func wait(_ start: (@escaping @Sendable ((any Error)?) -> Void) -> Void) throws {
    final class Box: @unchecked Sendable { var error: (any Error)? }
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    start { error in
        box.error = error
        done.signal()
    }
    done.wait()
    if let error = box.error { throw error }
}

do {
    switch (operation, rest.count) {
    case ("index", 2), ("index", 3):
        try wait { index.indexSearchableItems([item(rest[0], rest[1], domain: rest.count > 2 ? rest[2] : nil)], completionHandler: $0) }
    case ("update", 2):
        let update = item(rest[0], rest[1], domain: nil)
        update.isUpdate = true
        try wait { index.indexSearchableItems([update], completionHandler: $0) }
    case ("delete", 1):
        try wait { index.deleteSearchableItems(withIdentifiers: [rest[0]], completionHandler: $0) }
    case ("delete-domain", 1):
        try wait { index.deleteSearchableItems(withDomainIdentifiers: [rest[0]], completionHandler: $0) }
    case ("delete-all", 0):
        try wait { index.deleteAllSearchableItems(completionHandler: $0) }
    case ("batch", 4):
        index.beginBatch()
        index.indexSearchableItems([item(rest[1], rest[2], domain: nil)])
        index.deleteSearchableItems(withIdentifiers: [rest[3]])
        try wait { index.endBatch(withClientState: Data(rest[0].utf8), completionHandler: $0) }
    case ("donate", 2):
        let activity = NSUserActivity(activityType: "org.openspotlight.test.view")
        activity.title = rest[0]
        activity.persistentIdentifier = rest[1]
        activity.isEligibleForSearch = true
        activity.becomeCurrent()
    case ("delete-activity", 1):
        try wait { done in NSUserActivity.deleteSavedUserActivities(withPersistentIdentifiers: [rest[0]]) { done(nil) } }
    default:
        FileHandle.standardError.write(Data("openspotlight-app-helper: unknown operation \(operation) with \(rest.count) argument(s)\n".utf8))
        exit(2)
    }
} catch {
    print("openspotlight-app-helper: \(error)")
    exit(1)
}
