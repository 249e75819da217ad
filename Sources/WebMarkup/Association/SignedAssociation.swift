public import Foundation

/// The iOS 8 signed form of an association file: a CMS (PKCS #7) *SignedData*
/// blob in DER or BER that wraps the JSON.
///
/// Signing was required for Handoff and Shared Web Credentials on iOS 8, made
/// optional in iOS 9 and deprecated at WWDC19. This type finds the wrapped JSON
/// (the `id-data` *eContent*) so the file can still be read. It does **not**
/// verify the signature or the certificate chain: treat the content as unsigned.
///
/// ```swift
/// if SignedAssociation.isSignedData(body) {
///     let json = try SignedAssociation.content(of: body)   // signature not verified
/// }
/// ```
///
/// See Apple's archived *App Search Programming Guide*, "Support Universal Links",
/// and RFC 5652 (Cryptographic Message Syntax).
public enum SignedAssociation {
    /// DER of the OID 1.2.840.113549.1.7.2 (`id-signedData`).
    static let signedDataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    /// DER of the OID 1.2.840.113549.1.7.1 (`id-data`).
    static let dataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]

    /// Whether `data` starts like a CMS *SignedData* blob: an outer SEQUENCE
    /// whose first element is the OID 1.2.840.113549.1.7.2.
    /// Only the header is looked at, so a truncated blob still counts as signed
    /// (and ``content(of:)`` then says what is wrong with it).
    public static func isSignedData(_ data: Data) -> Bool {
        let bytes = [UInt8](data.prefix(32))
        guard bytes.count > 2, bytes[0] == 0x30 else { return false }
        var position = 2
        if bytes[1] & 0x80 != 0, bytes[1] != 0x80 {
            position += Int(bytes[1] & 0x7F)
        }
        let header: [UInt8] = [0x06, UInt8(signedDataOID.count)] + signedDataOID
        return bytes.count >= position + header.count && Array(bytes[position..<position + header.count]) == header
    }

    /// The content wrapped by a CMS *SignedData* blob, without verifying the signature.
    ///
    /// - Throws: ``WebMarkupError`` with code ``WebMarkupErrorCode/invalidFormat``
    ///   when the blob is not SignedData, is truncated, wraps something other
    ///   than `id-data`, or is detached (carries no content).
    public static func content(of data: Data) throws(WebMarkupError) -> Data {
        let reader = Reader(bytes: [UInt8](data))
        do {
            let outer = try reader.element(at: 0)
            let contentInfo = try reader.children(of: outer)
            guard outer.tag == 0x30, contentInfo.count >= 2, contentInfo[0].tag == 0x06,
                  reader.content(of: contentInfo[0]) == signedDataOID, contentInfo[1].tag == 0xA0
            else { throw failure("it is not a CMS SignedData structure") }
            guard let signedData = try reader.children(of: contentInfo[1]).first, signedData.tag == 0x30 else {
                throw failure("the SignedData body is missing")
            }
            let fields = try reader.children(of: signedData)
            guard fields.count >= 3, fields[0].tag == 0x02, fields[1].tag == 0x31, fields[2].tag == 0x30 else {
                throw failure("the SignedData fields are malformed")
            }
            let encapsulated = try reader.children(of: fields[2])
            guard let type = encapsulated.first, type.tag == 0x06 else {
                throw failure("the encapsulated content has no type")
            }
            guard reader.content(of: type) == dataOID else {
                throw failure("the encapsulated content is not id-data (1.2.840.113549.1.7.1)")
            }
            guard encapsulated.count >= 2, encapsulated[1].tag == 0xA0,
                  let octets = try reader.children(of: encapsulated[1]).first
            else { throw failure("the signature is detached: the file carries no content") }
            return Data(try reader.octets(of: octets))
        } catch let error as Reader.Malformed {
            throw failure(error.reason)
        } catch let error as WebMarkupError {
            throw error
        } catch {
            throw failure("\(error)")
        }
    }

    private static func failure(_ reason: String) -> WebMarkupError {
        WebMarkupError(.invalidFormat, "The signed (CMS) association file cannot be read: \(reason).")
    }

    /// A bounded reader for the subset of BER that `openssl smime`/`cms` emit:
    /// single-byte tags, definite and indefinite lengths.
    private struct Reader {
        struct Element {
            var tag: UInt8
            var contentStart: Int
            var contentEnd: Int
            var end: Int
        }

        struct Malformed: Error {
            var reason: String
        }

        let bytes: [UInt8]
        static let maximumDepth = 32

        func element(at position: Int, depth: Int = 0) throws -> Element {
            guard depth < Self.maximumDepth else { throw Malformed(reason: "it nests too deeply") }
            guard position + 2 <= bytes.count else { throw Malformed(reason: "it is truncated") }
            let tag = bytes[position]
            guard tag & 0x1F != 0x1F else { throw Malformed(reason: "it uses an unsupported tag") }
            var cursor = position + 1
            let first = bytes[cursor]
            cursor += 1
            if first == 0x80 {
                guard tag & 0x20 != 0 else { throw Malformed(reason: "it has an indefinite length on a primitive value") }
                var child = cursor
                while true {
                    guard child + 2 <= bytes.count else { throw Malformed(reason: "it is truncated") }
                    if bytes[child] == 0, bytes[child + 1] == 0 {
                        return Element(tag: tag, contentStart: cursor, contentEnd: child, end: child + 2)
                    }
                    child = try element(at: child, depth: depth + 1).end
                }
            }
            var length = 0
            if first & 0x80 == 0 {
                length = Int(first)
            } else {
                let count = Int(first & 0x7F)
                guard count <= 4, cursor + count <= bytes.count else { throw Malformed(reason: "it has an invalid length") }
                for _ in 0..<count {
                    length = length << 8 | Int(bytes[cursor])
                    cursor += 1
                }
            }
            guard length <= bytes.count - cursor else { throw Malformed(reason: "it is truncated") }
            return Element(tag: tag, contentStart: cursor, contentEnd: cursor + length, end: cursor + length)
        }

        func children(of parent: Element) throws -> [Element] {
            var result: [Element] = []
            var position = parent.contentStart
            while position < parent.contentEnd {
                let child = try element(at: position, depth: 1)
                guard child.end <= parent.contentEnd else {
                    throw Malformed(reason: "an element overruns its parent")
                }
                result.append(child)
                position = child.end
            }
            return result
        }

        func content(of element: Element) -> [UInt8] {
            Array(bytes[element.contentStart..<element.contentEnd])
        }

        /// The bytes of an OCTET STRING, joining the chunks of a constructed one.
        func octets(of element: Element, depth: Int = 0) throws -> [UInt8] {
            guard depth < Self.maximumDepth else { throw Malformed(reason: "it nests too deeply") }
            switch element.tag {
            case 0x04:
                return content(of: element)
            case 0x24:
                var result: [UInt8] = []
                for chunk in try children(of: element) {
                    result += try octets(of: chunk, depth: depth + 1)
                }
                return result
            default:
                throw Malformed(reason: "the content is not an OCTET STRING")
            }
        }
    }
}
