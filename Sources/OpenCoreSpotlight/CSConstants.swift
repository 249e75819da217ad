// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (Apple's global names, spelled as Apple spells them.)

/// `activityType` of the activity an app receives when the user opens one of its items from search.
public let CSSearchableItemActionType = "com.apple.corespotlightitem"
/// `userInfo` key of that activity holding the item's `uniqueIdentifier`.
public let CSSearchableItemActivityIdentifier = "kCSSearchableItemActivityIdentifier"
/// `activityType` of the activity an app receives for "Search in App".
public let CSQueryContinuationActionType = "com.apple.corespotlightquerycontinuation"
/// `userInfo` key of that activity holding the text the user typed.
public let CSSearchQueryString = "kCSSearchQueryString"
/// `userInfo` key holding the identifier of the result action the user chose.
public let CSActionIdentifier = "kCSActionIdentifier"

/// Standard `mailboxIdentifiers` values.
public let CSMailboxInbox = "mailbox.inbox"
public let CSMailboxDrafts = "mailbox.drafts"
public let CSMailboxSent = "mailbox.sent"
public let CSMailboxJunk = "mailbox.junk"
public let CSMailboxTrash = "mailbox.trash"
public let CSMailboxArchive = "mailbox.archive"

/// The framework version OpenCoreSpotlight matches (Apple's macOS 26.5 SDK).
public let CoreSpotlightVersionNumber: Double = 40
/// The framework version as text (Apple's is a C string).
public let CoreSpotlightVersionString = "@(#)PROGRAM:CoreSpotlight  PROJECT:OpenSpotlight-40\n"
/// The API level of that SDK.
public let CoreSpotlightAPIVersion = 40

/// The `kUTType…` constants of MobileCoreServices, as strings (`kUTTypeText as String` compiles unchanged).
public let kUTTypeItem = "public.item"
public let kUTTypeContent = "public.content"
public let kUTTypeData = "public.data"
public let kUTTypeText = "public.text"
public let kUTTypePlainText = "public.plain-text"
public let kUTTypeUTF8PlainText = "public.utf8-plain-text"
public let kUTTypeRTF = "public.rtf"
public let kUTTypeHTML = "public.html"
public let kUTTypeXML = "public.xml"
public let kUTTypeJSON = "public.json"
public let kUTTypeSourceCode = "public.source-code"
public let kUTTypePDF = "com.adobe.pdf"
public let kUTTypeCompositeContent = "public.composite-content"
public let kUTTypeContact = "public.contact"
public let kUTTypeVCard = "public.vcard"
public let kUTTypeMessage = "public.message"
public let kUTTypeEmailMessage = "public.email-message"
public let kUTTypeCalendarEvent = "public.calendar-event"
public let kUTTypeToDoItem = "public.to-do-item"
public let kUTTypeURL = "public.url"
public let kUTTypeFileURL = "public.file-url"
public let kUTTypeImage = "public.image"
public let kUTTypeJPEG = "public.jpeg"
public let kUTTypePNG = "public.png"
public let kUTTypeTIFF = "public.tiff"
public let kUTTypeGIF = "com.compuserve.gif"
public let kUTTypeAudiovisualContent = "public.audiovisual-content"
public let kUTTypeMovie = "public.movie"
public let kUTTypeVideo = "public.video"
public let kUTTypeMPEG4 = "public.mpeg-4"
public let kUTTypeQuickTimeMovie = "com.apple.quicktime-movie"
public let kUTTypeAudio = "public.audio"
public let kUTTypeMP3 = "public.mp3"
public let kUTTypeMPEG4Audio = "public.mpeg-4-audio"
public let kUTTypeFolder = "public.folder"
public let kUTTypeDirectory = "public.directory"
public let kUTTypeArchive = "public.archive"
public let kUTTypeZipArchive = "public.zip-archive"
public let kUTTypePresentation = "public.presentation"
public let kUTTypeSpreadsheet = "public.spreadsheet"
public let kUTTypeBookmark = "com.apple.bookmark"
public let kUTTypeApplication = "com.apple.application"
