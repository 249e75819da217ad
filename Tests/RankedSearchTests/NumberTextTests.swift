import Foundation
@_spi(Inspection) import RankedSearch
import Testing

/// Explanations' numbers through printf directly: the same text as Foundation's `String(format:)`.
@Suite struct NumberTextTests {
    @Test(arguments: [0, -0.0, 1, -1, 0.5, 0.123456, 1.23456e-5, 9.99951, 99_999, 123_456.7, 1e-300, 2.5e300, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                      .infinity, -.infinity, .nan, 0.00012345, 1_234.5, 0.1 + 0.2, 86_400 * 3.25])
    func matchesFoundationsFormat(value: Double) {
        #expect(NumberText.short(value) == String(format: "%.4g", value))
        #expect(NumberText.format("%.1f", value) == String(format: "%.1f", value))
    }

    @Test func exactTexts() {
        #expect(NumberText.short(0.123456) == "0.1235")
        #expect(NumberText.short(123_456) == "1.235e+05")
        #expect(NumberText.format("%.1f", 2.25) == "2.2")
    }
}
