import Testing
import SpotlightErrors

@Suite struct CodedErrorTests {
    static let base = TestError(.tooLarge, "the page is over 10 MB; raise the limit", subject: "https://a.example/")

    /// (left, right, equal): code, message, subject and the cause's description each count.
    static let equality: [(String, TestError, TestError, Bool)] = [
        ("same fields", base, TestError(.tooLarge, "the page is over 10 MB; raise the limit", subject: "https://a.example/"), true),
        ("code", base, TestError(.unreachable, base.message, subject: base.subject), false),
        ("message", base, TestError(.tooLarge, "too big", subject: base.subject), false),
        ("subject", base, TestError(.tooLarge, base.message, subject: "https://b.example/"), false),
        ("no subject", base, TestError(.tooLarge, base.message), false),
        (
            "causes that print the same", TestError(.tooLarge, "m", underlying: Cause(text: "EIO")),
            TestError(.tooLarge, "m", underlying: OtherCause(text: "EIO")), true
        ),
        ("causes that print apart", TestError(.tooLarge, "m", underlying: Cause(text: "EIO")), TestError(.tooLarge, "m", underlying: Cause(text: "EACCES")), false),
        ("a cause and none", TestError(.tooLarge, "m", underlying: Cause(text: "EIO")), TestError(.tooLarge, "m"), false),
        ("a later code", TestError(.addedLater, "m"), TestError(TestErrorCode("addedLater"), "m"), true),
    ]

    @Test(arguments: equality)
    func equalityAndHashLookAtCodeMessageSubjectAndCause(name: String, left: TestError, right: TestError, equal: Bool) {
        #expect((left == right) == equal, "\(name)")
        #expect((Set([left, right]).count == 1) == equal, "\(name)")
    }

    /// (error, description): the message, then the cause in parentheses; the subject is not repeated.
    static let descriptions: [(TestError, String)] = [
        (TestError(.tooLarge, "the page is too large"), "the page is too large"),
        (TestError(.tooLarge, "the page is too large", subject: "https://a.example/"), "the page is too large"),
        (TestError(.unreachable, "no answer from a.example", underlying: Cause(text: "connection refused")), "no answer from a.example (connection refused)"),
        (TestError(.unreachable, "", underlying: Cause(text: "x")), " (x)"),
    ]

    @Test(arguments: descriptions)
    func descriptionIsTheMessageThenTheCause(error: TestError, expected: String) {
        #expect(error.description == expected)
        #expect("\(error)" == expected)
    }

    @Test func theCauseIsKeptAsAnError() throws {
        let error = TestError(.unreachable, "no answer", subject: "a.example", underlying: Cause(text: "ECONNREFUSED"))
        #expect(error.underlying as? Cause == Cause(text: "ECONNREFUSED"))
        #expect(error.subject == "a.example")
        #expect(TestError(.unreachable, "no answer").underlying == nil)
    }

    @Test func theCodeTypeIsAMemberAndItsCodesMatchInCatchAndSwitch() {
        let code: TestError.Code = .tooLarge
        #expect(code == TestErrorCode.tooLarge)
        do {
            throw TestError(.addedLater, "m")
        } catch let error as TestError where error.code == .addedLater {
            let kind =
                switch error.code {
                case .tooLarge: "tooLarge"
                case .addedLater: "addedLater"
                default: "other"
                }
            #expect(kind == "addedLater")
        } catch {
            Issue.record("caught \(error) as another type")
        }
    }

    @Test func anErrorCrossesTasks() async {
        let error = TestError(.unreachable, "no answer", underlying: Cause(text: "EHOSTUNREACH"))
        let back = await Task.detached { error }.value
        #expect(back == error)
        #expect(back.description == "no answer (EHOSTUNREACH)")
    }
}
