import CSystemd
import Foundation
public import Logging
import Synchronization

/// The GNOME Shell search provider, `org.gnome.Shell.SearchProvider2`, on the
/// session bus through sd-bus (libsystemd).
///
/// ```swift
/// let provider = GnomeSearchProvider(backend: backend)
/// try provider.run(until: { stopRequested })   // blocks: the bus thread
/// ```
///
/// It owns the name ``busName`` and answers at ``objectPath`` (what the
/// `.search-provider.ini` that `spotlight install` writes names):
/// `GetInitialResultSet(as) → as`, `GetSubsearchResultSet(as, as) → as`,
/// `GetResultMetas(as) → aa{sv}` (`id`, `name`, `description`, `gicon`),
/// `ActivateResult(s, as, u)`, `LaunchSearch(as, u)`, and
/// `org.freedesktop.DBus.Introspectable.Introspect`. One object on one thread:
/// sd-bus handles are not thread-safe, so every call is read, answered and
/// sent on the thread that runs ``run(until:)``.
public final class GnomeSearchProvider: Sendable {
    /// The well-known name on the session bus.
    public static let busName = "org.openspotlight.SearchProvider"
    /// The object GNOME Shell calls.
    public static let objectPath = "/org/openspotlight/SearchProvider"
    /// The interface.
    public static let interface = "org.gnome.Shell.SearchProvider2"

    /// The introspection data of ``objectPath``.
    public static let introspection = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node>
          <interface name="org.gnome.Shell.SearchProvider2">
            <method name="GetInitialResultSet"><arg type="as" name="terms" direction="in"/><arg type="as" name="results" direction="out"/></method>
            <method name="GetSubsearchResultSet"><arg type="as" name="previous_results" direction="in"/><arg type="as" name="terms" direction="in"/><arg type="as" name="results" direction="out"/></method>
            <method name="GetResultMetas"><arg type="as" name="identifiers" direction="in"/><arg type="aa{sv}" name="metas" direction="out"/></method>
            <method name="ActivateResult"><arg type="s" name="identifier" direction="in"/><arg type="as" name="terms" direction="in"/><arg type="u" name="timestamp" direction="in"/></method>
            <method name="LaunchSearch"><arg type="as" name="terms" direction="in"/><arg type="u" name="timestamp" direction="in"/></method>
          </interface>
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect"><arg type="s" name="xml_data" direction="out"/></method>
          </interface>
        </node>
        """

    let backend: any SearchProviderBackend
    let logger: Logger

    public init(backend: any SearchProviderBackend, logger: Logger = Logger(label: "openspotlight.gnome-provider")) {
        self.backend = backend
        self.logger = logger
    }

    /// Connects to the session bus (`$DBUS_SESSION_BUS_ADDRESS`), owns the name
    /// and answers calls until `shouldStop` says so (checked every 100 ms).
    /// - Throws: ``DBusError`` when there is no session bus or the name is taken.
    public func run(until shouldStop: @Sendable () -> Bool) throws {
        var bus: OpaquePointer?
        var status = sd_bus_open_user(&bus)
        guard status >= 0, let bus else { throw DBusError("cannot connect to the session bus", status) }
        defer { sd_bus_flush_close_unref(bus) }
        var slot: OpaquePointer?
        let context = Unmanaged.passRetained(self)
        defer { context.release() }
        status = sd_bus_add_object(bus, &slot, Self.objectPath, { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            return Unmanaged<GnomeSearchProvider>.fromOpaque(userdata).takeUnretainedValue().handle(message)
        }, context.toOpaque())
        guard status >= 0 else { throw DBusError("cannot export \(Self.objectPath)", status) }
        defer { sd_bus_slot_unref(slot) }
        status = sd_bus_request_name(bus, Self.busName, 0)
        guard status >= 0 else { throw DBusError("cannot own \(Self.busName) (another provider runs?)", status) }
        logger.info("GNOME Shell search provider on the session bus as \(Self.busName)")
        while !shouldStop() {
            status = sd_bus_process(bus, nil)
            guard status >= 0 else { throw DBusError("the session bus connection failed", status) }
            if status > 0 { continue } // more to process
            status = sd_bus_wait(bus, 100_000)
            guard status >= 0 || status == -EINTR else { throw DBusError("the session bus connection failed", status) }
        }
        _ = sd_bus_release_name(bus, Self.busName)
    }

    /// Answers one call to the object; 0 leaves it to sd-bus (an unknown method).
    private func handle(_ message: OpaquePointer) -> Int32 {
        guard let interfaceName = sd_bus_message_get_interface(message).map({ String(cString: $0) }),
              let member = sd_bus_message_get_member(message).map({ String(cString: $0) }) else { return 0 }
        let call = BusMessage(message)
        do {
            switch (interfaceName, member) {
            case ("org.freedesktop.DBus.Introspectable", "Introspect"):
                try call.reply { try $0.append(string: Self.introspection) }
            case (Self.interface, "GetInitialResultSet"):
                let terms = try call.readStrings()
                let found = backend.search(terms: terms)
                try call.reply { try $0.append(strings: found) }
            case (Self.interface, "GetSubsearchResultSet"):
                let previous = try call.readStrings()
                let terms = try call.readStrings()
                let found = backend.subsearch(previous: previous, terms: terms)
                try call.reply { try $0.append(strings: found) }
            case (Self.interface, "GetResultMetas"):
                let metas = backend.metas(for: try call.readStrings())
                try call.reply { try $0.append(metas: metas) }
            case (Self.interface, "ActivateResult"):
                let identifier = try call.readString()
                let terms = try call.readStrings()
                try call.reply { _ in }
                backend.activate(identifier: identifier, terms: terms)
            case (Self.interface, "LaunchSearch"):
                let terms = try call.readStrings()
                try call.reply { _ in }
                backend.launchSearch(terms: terms)
            default:
                return 0
            }
        } catch {
            logger.warning("D-Bus \(member): \(error)")
            call.replyError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "\(error)")
        }
        return 1
    }
}

/// An sd-bus failure: what was being done and the negative errno sd-bus returned.
public struct DBusError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var errno: Int32

    init(_ message: String, _ status: Int32) {
        self.message = message
        errno = -status
    }

    public var description: String { "\(message): \(String(cString: strerror(errno)))" }
}
