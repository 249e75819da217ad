import SpotlightErrors

/// A module's code as the package's modules declare theirs.
struct TestErrorCode: ErrorCode {
    let name: String
    init(_ name: String) { self.name = name }

    static let tooLarge = Self("tooLarge")
    static let unreachable = Self("unreachable")
}

/// A code added later, in another file, as a module grows its codes.
extension TestErrorCode {
    static let addedLater = Self("addedLater")
}

typealias TestError = CodedError<TestErrorCode>

/// A cause that prints as `text`.
struct Cause: Error, Equatable, CustomStringConvertible {
    var text: String
    var description: String { text }
}

/// Another type of cause that prints the same: equality looks at the description only.
struct OtherCause: Error, CustomStringConvertible {
    var text: String
    var description: String { text }
}
