import Foundation
import SpotlightQuery
import Testing

/// The 82 queries of spec §9.4 against the §9.2 items in the §9.1 environment.
@Suite struct QueryConformanceTests {
    @Test func theSpecTableHas82Rows() {
        #expect(SpecFile.conformanceRows.count == 82, "read from \(SpecFile.url.path)")
        #expect(SpecFile.conformanceRows.last?.query == "")
    }

    @Test(arguments: SpecFile.conformanceRows)
    func row(_ row: ConformanceRow) {
        switch row.expected {
        case .error:
            #expect(throws: QuerySyntaxError.self) { try QueryParser.parse(row.query) }
        case .ids(let ids):
            do {
                let expression = try QueryParser.parse(row.query)
                #expect(matchingIDs(expression) == ids)
            } catch {
                Issue.record("\(row.query) failed to parse: \(error)")
            }
        }
    }

    /// §9.1 spells out the resolved `$time` values.
    @Test func environmentTimes() {
        let evaluator = specEvaluator
        #expect(evaluator.resolve(.today(offsetDays: 0)).start.timeIntervalSinceReferenceDate == 771_897_600)
        #expect(evaluator.resolve(.today(offsetDays: 0)).start == isoDate("2025-06-18T00:00Z"))
        #expect(evaluator.resolve(.yesterday).start == isoDate("2025-06-17T00:00Z"))
        #expect(evaluator.resolve(.thisWeek(offsetWeeks: 0)).start == isoDate("2025-06-15T00:00Z"))
        #expect(evaluator.resolve(.lastWeek).start == isoDate("2025-06-08T00:00Z"))
        #expect(evaluator.resolve(.thisWeek(offsetWeeks: -1)).start == isoDate("2025-06-08T00:00Z"))
        #expect(evaluator.resolve(.thisMonth(offsetMonths: 0)).start == isoDate("2025-06-01T00:00Z"))
        #expect(evaluator.resolve(.thisYear(offsetYears: 0)).start == isoDate("2025-01-01T00:00Z"))
    }

    /// Items the spec describes in prose.
    @Test func itemSet() {
        #expect(specItems.map(\.id) == ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"])
        #expect(specItems[8].values(of: "contentDescription") == [.string(#"He said "hi" and it's fine"#)])
        #expect(specItems[9].defaultSearchableAttributes == ["title"])
        #expect(specItems[0].defaultSearchableAttributes == ["authorNames", "contentDescription", "keywords", "title"])
    }
}
