public import Foundation
import SpotlightIndex
import SpotlightSystem

/// Carries out a result's action — call, email, navigate, open a page — by
/// handing its URI (`tel:`, `mailto:`, `geo:`, `https:`) to the desktop's
/// opener, as tapping the action's button on an iPhone hands it to Phone,
/// Mail or Maps.
///
/// ```swift
/// let runner = ActionRunner()                      // xdg-open, or $OPENSPOTLIGHT_OPEN_COMMAND
/// let done = try runner.perform(.navigate(latitude: 40.7194, longitude: -73.997))
/// print(done.uri)                                  // geo:40.7194,-73.997
/// ```
///
/// The one runner every front end shares (the command line, `MKMapItem.openInMaps`,
/// the service): the command is `xdg-open` unless `OPENSPOTLIGHT_OPEN_COMMAND`
/// names another (words split at spaces; the URI is added as the last argument),
/// which is how tests record what would have been opened.
public struct ActionRunner: Sendable {
    /// The environment variable naming the opener.
    public static let commandVariable = "OPENSPOTLIGHT_OPEN_COMMAND"

    /// The opener and its arguments; the URI is appended.
    public var command: [String]
    /// How long the opener may run, in seconds.
    public var timeout: TimeInterval
    private let environment: [String: String]

    /// A runner with `command`, else `$OPENSPOTLIGHT_OPEN_COMMAND`, else `xdg-open`.
    public init(command: [String]? = nil, environment: [String: String] = ProcessInfo.processInfo.environment, timeout: TimeInterval = 30) {
        let configured = environment[Self.commandVariable].map { $0.split(separator: " ").map(String.init) } ?? []
        self.command = command ?? (configured.isEmpty ? ["xdg-open"] : configured)
        self.timeout = timeout
        self.environment = environment
    }

    /// Carries out `action` through its URI.
    /// - Throws: ``SystemSearchError`` `.actionFailed` when the opener cannot
    ///   start, runs past ``timeout`` or exits non-zero (no application handles the URI).
    @discardableResult
    public func perform(_ action: ResultAction) throws -> ActionOutcome {
        try open(action.uri, label: action.label)
    }

    /// Hands `uri` to the opener.
    /// - Throws: ``SystemSearchError`` `.actionFailed`, as ``perform(_:)``.
    @discardableResult
    public func open(_ uri: URL, label: String? = nil) throws -> ActionOutcome {
        let result: AppProcess.Result
        do {
            result = try AppProcess.run(command + [uri.absoluteString], environment: environment, timeout: timeout, what: "the opener")
        } catch let error as SystemSearchError {
            throw SystemSearchError(.actionFailed, "cannot open \(uri.absoluteString): \(error.message) (set \(Self.commandVariable) to choose the opener)")
        }
        guard result.status == 0 else {
            let said = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
            throw SystemSearchError(.actionFailed, "\(command.joined(separator: " ")) could not open \(uri.absoluteString) (exit \(result.status))\(said.isEmpty ? "" : ": \(said)"); is an application set for \(uri.scheme ?? "this"): links?")
        }
        return ActionOutcome(label: label ?? uri.absoluteString, uri: uri, command: command)
    }
}

/// An action carried out.
public struct ActionOutcome: Sendable, Hashable, Encodable {
    /// What the action said on its button ("Directions to …").
    public var label: String
    /// The URI handed to the opener.
    public var uri: URL
    /// The opener that took it.
    public var command: [String]
}

extension ResultAction {
    /// The URI that carries the action out: `tel:`, `mailto:`, `geo:` (RFC 5870;
    /// an address without coordinates as `geo:0,0?q=…`, which GNOME Maps and
    /// Android's maps read as a search), or the page's URL.
    public var uri: URL {
        switch self {
        case .call(let number):
            let dialable = number.filter { $0.isASCII && ($0.isNumber || "+*#,;".contains($0)) }
            return URL(string: "tel:\(dialable)")!
        case .email(let address):
            return URL(string: "mailto:\(address.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed.union(["@"])) ?? "")")!
        case .navigate(let latitude, let longitude):
            return URL(string: "geo:\(latitude),\(longitude)")!
        case .navigateToAddress(let address):
            var allowed = CharacterSet.urlQueryAllowed
            allowed.remove(charactersIn: "&=+#?")
            return URL(string: "geo:0,0?q=\(address.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")")!
        case .openURL(let url):
            return url
        }
    }

    /// The action's kind as the command line and JSON name it: call, email, navigate, openURL.
    public var kind: String {
        switch self {
        case .call: "call"
        case .email: "email"
        case .navigate, .navigateToAddress: "navigate"
        case .openURL: "openURL"
        }
    }
}
