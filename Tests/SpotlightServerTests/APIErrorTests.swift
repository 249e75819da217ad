import HTTPTypes
import SpotlightIndex
import SpotlightSystem
import Testing
import SpotlightServer

/// The HTTP API's codes for the system layer's and the engine's errors: part of the API, so pinned here.
@Suite struct APIErrorTests {
    /// (the module's error, the API's code, its status).
    static let mappings: [(any Error, APIError.Code, HTTPResponse.Status)] = [
        (SystemSearchError(.invalidRegistration, "m"), .invalidRegistration, .badRequest),
        (SystemSearchError(.appNotRegistered, "m"), .appNotRegistered, .notFound),
        (SystemSearchError(.registryUnavailable, "m"), .registryUnavailable, .serviceUnavailable),
        (SystemSearchError(.resultNotFound, "m"), .resultNotFound, .notFound),
        (SystemSearchError(.notContinuable, "m"), .notContinuable, .conflict),
        (SystemSearchError(.launchFailed, "m"), .launchFailed, .badGateway),
        (SystemSearchError(.notHandled, "m"), .notHandled, .badGateway),
        (SystemSearchError(.actionFailed, "m"), .actionFailed, .badGateway),
        (SystemSearchError(SystemSearchErrorCode("addedLater"), "m"), .internalError, .internalServerError),
        (SpotlightIndexError(.invalidQuery, "m"), .invalidRequest, .badRequest),
        (SpotlightIndexError(.invalidStoreName, "m"), .invalidRequest, .badRequest),
        (SpotlightIndexError(.itemNotFound, "m", subject: "n1"), .resultNotFound, .notFound),
        (SpotlightIndexError(.storeBusy, "m"), .storeUnavailable, .serviceUnavailable),
    ]

    @Test(arguments: 0..<mappings.count)
    func eachModuleErrorHasItsAPICodeAndStatus(row: Int) {
        let (error, code, status) = Self.mappings[row]
        let answer = APIError(error)
        #expect(answer.code == code, "\(error)")
        #expect(answer.status == status, "\(error)")
    }

    @Test func aSystemLayerCodeKeepsItsNameOnTheWire() {
        for code in [SystemSearchErrorCode.appNotRegistered, .resultNotFound, .notContinuable, .launchFailed, .notHandled, .actionFailed] {
            #expect(APIError(SystemSearchError(code, "m")).code.rawValue == code.name)
        }
    }

    @Test func theEnginesMessageCarriesItsCause() {
        struct Cause: Error, CustomStringConvertible { var description: String { "database is locked" } }
        let answer = APIError(SpotlightIndexError(.storeBusy, "another process is writing the store", underlying: Cause()))
        #expect(answer.message == "another process is writing the store (database is locked)")
        #expect(APIError(SystemSearchError(.notHandled, "the app did not open it", subject: "com.example.notes")).message == "the app did not open it")
    }
}
