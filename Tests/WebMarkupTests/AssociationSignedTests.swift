import Foundation
import Testing
@testable import WebMarkup

@Suite struct AssociationSignedTests {
    typealias F = AssociationFixtures

    /// `openssl smime -sign -nodetach -outform DER -binary -noattr -nocerts` of
    /// {"applinks":{"details":[{"appID":"ABCDE12345.com.example.app","paths":["/signed/*"]}]},
    ///  "webcredentials":{"apps":["ABCDE12345.com.example.app"]}}
    static let derBlob = "MIIBpQYJKoZIhvcNAQcCoIIBljCCAZICAQExDzANBglghkgBZQMEAgEFADCBoQYJKoZIhvcNAQcBoIGTBIGQeyJhcHBsaW5rcyI6eyJkZXRhaWxzIjpbeyJhcHBJRCI6IkFCQ0RFMTIzNDUuY29tLmV4YW1wbGUuYXBwIiwicGF0aHMiOlsiL3NpZ25lZC8qIl19XX0sIndlYmNyZWRlbnRpYWxzIjp7ImFwcHMiOlsiQUJDREUxMjM0NS5jb20uZXhhbXBsZS5hcHAiXX19MYHXMIHUAgEBMC4wFjEUMBIGA1UEAwwLZXhhbXBsZS5jb20CFALJO89tVxvxpXkRfnxOsWgk9+PSMA0GCWCGSAFlAwQCAQUAMA0GCSqGSIb3DQEBAQUABIGADOA9rWuDG7EZ6WalFcTbXFLHubpp55z9Otq/KnYYBaDmRvdooHYa6ilCM2Yzry1PgmbkrWmFT9PNbZoQ6jci1EHoo7Bc0+59mknMCqWepijFSqZ6v1fuGNlYEkCvbljJmuNMWC/tMGVgvFxMKkDwuOWRcl4LRZ2tg2x1tq9Tf3c="

    /// The same content from `openssl cms -sign -stream`: BER with indefinite lengths
    /// and a constructed OCTET STRING.
    static let berBlob = "MIAGCSqGSIb3DQEHAqCAMIACAQExDTALBglghkgBZQMEAgEwgAYJKoZIhvcNAQcBoIAkgASBkHsiYXBwbGlua3MiOnsiZGV0YWlscyI6W3siYXBwSUQiOiJBQkNERTEyMzQ1LmNvbS5leGFtcGxlLmFwcCIsInBhdGhzIjpbIi9zaWduZWQvKiJdfV19LCJ3ZWJjcmVkZW50aWFscyI6eyJhcHBzIjpbIkFCQ0RFMTIzNDUuY29tLmV4YW1wbGUuYXBwIl19fQAAAAAAADGB1TCB0gIBATAuMBYxFDASBgNVBAMMC2V4YW1wbGUuY29tAhQCyTvPbVcb8aV5EX58TrFoJPfj0jALBglghkgBZQMEAgEwDQYJKoZIhvcNAQEBBQAEgYAM4D2ta4MbsRnpZqUVxNtcUse5umnnnP062r8qdhgFoOZG92igdhrqKUIzZjOvLU+CZuStaYVP081tmhDqNyLUQeijsFzT7n2aScwKpZ6mKMVKpnq/V+4Y2VgSQK9uWMma40xYL+0wZWC8XEwqQPC45ZFyXgtFna2DbHW2r1N/dwAAAAAAAA=="

    /// A detached signature (no `-nodetach`): it carries no content.
    static let detachedBlob = "MIIBDAYJKoZIhvcNAQcCoIH+MIH7AgEBMQ8wDQYJYIZIAWUDBAIBBQAwCwYJKoZIhvcNAQcBMYHXMIHUAgEBMC4wFjEUMBIGA1UEAwwLZXhhbXBsZS5jb20CFALJO89tVxvxpXkRfnxOsWgk9+PSMA0GCWCGSAFlAwQCAQUAMA0GCSqGSIb3DQEBAQUABIGADOA9rWuDG7EZ6WalFcTbXFLHubpp55z9Otq/KnYYBaDmRvdooHYa6ilCM2Yzry1PgmbkrWmFT9PNbZoQ6jci1EHoo7Bc0+59mknMCqWepijFSqZ6v1fuGNlYEkCvbljJmuNMWC/tMGVgvFxMKkDwuOWRcl4LRZ2tg2x1tq9Tf3c="

    @Test(arguments: [derBlob, berBlob])
    func readsTheWrappedJSON(blob: String) throws {
        let data = try #require(Data(base64Encoded: blob))
        #expect(SignedAssociation.isSignedData(data))
        let json = try SignedAssociation.content(of: data)
        #expect(String(decoding: json, as: UTF8.self).hasPrefix(#"{"applinks":{"details":"#))
        let association = try AppSiteAssociation(data: data)
        #expect(association.isSigned)
        #expect(association.handler(for: F.url("/signed/1")) == F.app)
        #expect(association.webCredentialsApps == [F.app])
    }

    @Test(arguments: [
        (detachedBlob, 0, "detached"),
        (derBlob, 100, "truncated"),
        (berBlob, 60, "truncated"),
    ])
    func brokenBlobsThrowInvalidFormat(blob: String, keep: Int, reason: String) throws {
        var data = try #require(Data(base64Encoded: blob))
        if keep > 0 { data = data.prefix(keep) }
        #expect(SignedAssociation.isSignedData(data))
        do {
            _ = try AppSiteAssociation(data: data)
            Issue.record("expected invalidFormat")
        } catch let error as WebMarkupError {
            #expect(error.code == .invalidFormat)
            #expect(error.message.contains(reason), "\(error.message)")
        }
    }

    @Test func otherContentTypesAreRefused() throws {
        // SignedData whose eContentType is 1.2.840.113549.1.7.3 (envelopedData), not id-data.
        var bytes = [UInt8](try #require(Data(base64Encoded: Self.derBlob)))
        let dataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
        let index = try #require((0..<bytes.count - dataOID.count).first { Array(bytes[$0..<$0 + dataOID.count]) == dataOID })
        bytes[index + dataOID.count - 1] = 0x03
        #expect(throws: WebMarkupError(.invalidFormat, "The signed (CMS) association file cannot be read: the encapsulated content is not id-data (1.2.840.113549.1.7.1).")) {
            try SignedAssociation.content(of: Data(bytes))
        }
    }

    @Test(arguments: [
        Data(#"{"applinks": {}}"#.utf8),
        Data([0x30, 0x03, 0x02, 0x01, 0x01]),
        Data([0x30]),
        Data(),
    ])
    func plainDataIsNotSigned(data: Data) {
        #expect(!SignedAssociation.isSignedData(data))
    }
}
