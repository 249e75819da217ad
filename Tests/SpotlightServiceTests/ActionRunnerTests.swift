import Foundation
import Testing
import SpotlightIndex
import SpotlightSystem
import SpotlightService

@Suite struct ActionRunnerTests {
    @Test(arguments: [
        (ResultAction.call(phoneNumber: "+1 (212) 555-0142"), "tel:+12125550142", "call"),
        (.call(phoneNumber: "01 42 68 53 00 ;ext=12"), "tel:0142685300;12", "call"),
        (.email(address: "ray@example.com"), "mailto:ray@example.com", "email"),
        (.email(address: "a b@example.com"), "mailto:a%20b@example.com", "email"),
        (.navigate(latitude: 40.7194, longitude: -73.997), "geo:40.7194,-73.997", "navigate"),
        (.navigate(latitude: -33.8568, longitude: 151.2153), "geo:-33.8568,151.2153", "navigate"),
        (.navigateToAddress("120 Mulberry Street, New York & Co #2"), "geo:0,0?q=120%20Mulberry%20Street,%20New%20York%20%26%20Co%20%232", "navigate"),
        (.openURL(URL(string: "https://greengrocer.example.com/store?x=1")!), "https://greengrocer.example.com/store?x=1", "openURL"),
    ])
    func eachActionHasItsURI(action: ResultAction, uri: String, kind: String) throws {
        #expect(action.uri.absoluteString == uri)
        #expect(action.kind == kind)
        let recorder = try OpenerRecorder()
        defer { recorder.cleanUp() }
        let done = try recorder.runner.perform(action)
        #expect(try recorder.opened() == [uri])
        #expect(done.uri.absoluteString == uri && done.label == action.label && done.command == recorder.command)
    }

    @Test func theOpenerIsXdgOpenUnlessConfigured() {
        #expect(ActionRunner(environment: [:]).command == ["xdg-open"])
        #expect(ActionRunner(environment: [ActionRunner.commandVariable: "gio open"]).command == ["gio", "open"])
        #expect(ActionRunner(environment: [ActionRunner.commandVariable: ""]).command == ["xdg-open"])
        #expect(ActionRunner(command: ["/bin/echo"], environment: [ActionRunner.commandVariable: "gio open"]).command == ["/bin/echo"])
    }

    @Test func anOpenerThatFailsIsAClearError() throws {
        let refusing = try OpenerRecorder(exitStatus: 4)
        defer { refusing.cleanUp() }
        #expect { try refusing.runner.perform(.call(phoneNumber: "112")) } throws: { error in
            guard let error = error as? SystemSearchError, error.code == .actionFailed else { return false }
            return error.message.contains("could not open tel:112 (exit 4): no handler")
        }
        let missing = ActionRunner(command: ["/nonexistent/opener"], environment: [:])
        #expect { try missing.perform(.navigate(latitude: 1, longitude: 2)) } throws: { error in
            guard let error = error as? SystemSearchError, error.code == .actionFailed else { return false }
            return error.message.contains("cannot open geo:1.0,2.0") && error.message.contains(ActionRunner.commandVariable)
        }
    }
}
