import CSystemd
import Foundation

/// A method call being answered, read and replied to through sd-bus's
/// fixed-argument functions (its variadic ones are not callable from Swift).
struct BusMessage {
    let call: OpaquePointer

    init(_ call: OpaquePointer) {
        self.call = call
    }

    /// Reads a `s` argument.
    func readString() throws -> String {
        var value: UnsafePointer<CChar>?
        let status = sd_bus_message_read_basic(call, CChar(UInt8(ascii: "s")), &value)
        guard status > 0, let value else { throw DBusError("expected a string argument", status == 0 ? -EINVAL : status) }
        return String(cString: value)
    }

    /// Reads an `as` argument.
    func readStrings() throws -> [String] {
        var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let status = sd_bus_message_read_strv(call, &list)
        guard status > 0 else { throw DBusError("expected an array of strings", status == 0 ? -EINVAL : status) }
        var strings: [String] = []
        if let list {
            var index = 0
            while let item = list[index] {
                strings.append(String(cString: item))
                free(item)
                index += 1
            }
            free(list)
        }
        return strings
    }

    /// Sends a method return whose body `fill` appends.
    func reply(_ fill: (Reply) throws -> Void) throws {
        var reply: OpaquePointer?
        var status = sd_bus_message_new_method_return(call, &reply)
        guard status >= 0, let reply else { throw DBusError("cannot make a reply", status) }
        defer { sd_bus_message_unref(reply) }
        try fill(Reply(message: reply))
        status = sd_bus_send(nil, reply, nil)
        guard status >= 0 else { throw DBusError("cannot send the reply", status) }
    }

    /// Sends an error reply.
    func replyError(name: String, message: String) {
        name.withCString { name in
            message.withCString { text in
                var error = sd_bus_error(name: name, message: text, _need_free: 0)
                _ = sd_bus_reply_method_error(call, &error)
            }
        }
    }

    /// The body of a reply being built.
    struct Reply {
        let message: OpaquePointer

        func append(string: String) throws {
            let status = string.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
            guard status >= 0 else { throw DBusError("cannot append a string", status) }
        }

        func append(strings: [String]) throws {
            var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
            pointers.append(nil)
            defer { for pointer in pointers { free(pointer) } }
            let status = pointers.withUnsafeMutableBufferPointer { sd_bus_message_append_strv(message, $0.baseAddress) }
            guard status >= 0 else { throw DBusError("cannot append strings", status) }
        }

        /// `aa{sv}`, each value a string variant.
        func append(metas: [SearchProviderResultMeta]) throws {
            try container("a", "a{sv}") {
                for meta in metas {
                    var entries = [("id", meta.identifier), ("name", meta.name)]
                    if let description = meta.description { entries.append(("description", description)) }
                    if let icon = meta.icon { entries.append(("gicon", icon)) }
                    if let text = meta.clipboardText { entries.append(("clipboardText", text)) }
                    try container("a", "{sv}") {
                        for (key, value) in entries {
                            try container("e", "sv") {
                                try append(string: key)
                                try container("v", "s") { try append(string: value) }
                            }
                        }
                    }
                }
            }
        }

        private func container(_ type: Character, _ contents: String, _ body: () throws -> Void) throws {
            var status = sd_bus_message_open_container(message, CChar(type.asciiValue!), contents)
            guard status >= 0 else { throw DBusError("cannot open a \(type) container", status) }
            try body()
            status = sd_bus_message_close_container(message)
            guard status >= 0 else { throw DBusError("cannot close a \(type) container", status) }
        }
    }
}
