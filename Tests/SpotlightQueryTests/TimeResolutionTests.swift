import Foundation
import SpotlightQuery
import Testing

struct ResolutionCase: Sendable, CustomTestStringConvertible {
    let now: String
    let zone: String
    let firstWeekday: Int
    let time: TimeExpression
    let start: String
    let end: String?
    var testDescription: String { "\(time) at \(now) in \(zone), first weekday \(firstWeekday)" }
}

private func resolution(
    _ now: String, zone: String = "UTC", firstWeekday: Int = 1, _ time: TimeExpression, _ start: String, _ end: String?
) -> ResolutionCase {
    ResolutionCase(now: now, zone: zone, firstWeekday: firstWeekday, time: time, start: start, end: end)
}

@Suite struct TimeResolutionTests {
    static let cases: [ResolutionCase] = [
        // The spec environment (§9.1): Wednesday 2025-06-18T15:00Z, UTC, Sunday first.
        resolution("2025-06-18T15:00:00Z", .now(offsetSeconds: 0), "2025-06-18T15:00:00Z", nil),
        resolution("2025-06-18T15:00:00Z", .now(offsetSeconds: -86400), "2025-06-17T15:00:00Z", nil),
        resolution("2025-06-18T15:00:00Z", .today(offsetDays: 0), "2025-06-18", "2025-06-19"),
        resolution("2025-06-18T15:00:00Z", .today(offsetDays: -7), "2025-06-11", "2025-06-12"),
        resolution("2025-06-18T15:00:00Z", .yesterday, "2025-06-17", "2025-06-18"),
        resolution("2025-06-18T15:00:00Z", .thisWeek(offsetWeeks: 0), "2025-06-15", "2025-06-22"),
        resolution("2025-06-18T15:00:00Z", .thisWeek(offsetWeeks: 2), "2025-06-29", "2025-07-06"),
        resolution("2025-06-18T15:00:00Z", .lastWeek, "2025-06-08", "2025-06-15"),
        resolution("2025-06-18T15:00:00Z", .thisMonth(offsetMonths: 0), "2025-06-01", "2025-07-01"),
        resolution("2025-06-18T15:00:00Z", .thisYear(offsetYears: 0), "2025-01-01", "2026-01-01"),
        resolution("2025-06-18T15:00:00Z", .iso(isoDate("2020-02-02T02:02:02Z")), "2020-02-02T02:02:02Z", nil),
        // Month and year boundaries.
        resolution("2025-03-01T10:00:00Z", .today(offsetDays: -1), "2025-02-28", "2025-03-01"),
        resolution("2024-03-01T10:00:00Z", .today(offsetDays: -1), "2024-02-29", "2024-03-01"),
        resolution("2025-03-01T10:00:00Z", .thisMonth(offsetMonths: -1), "2025-02-01", "2025-03-01"),
        resolution("2024-03-31T10:00:00Z", .thisMonth(offsetMonths: -1), "2024-02-01", "2024-03-01"),
        resolution("2025-01-31T10:00:00Z", .thisMonth(offsetMonths: 1), "2025-02-01", "2025-03-01"),
        resolution("2025-01-01T00:30:00Z", .yesterday, "2024-12-31", "2025-01-01"),
        resolution("2025-01-01T00:30:00Z", .thisMonth(offsetMonths: -1), "2024-12-01", "2025-01-01"),
        resolution("2025-01-01T00:30:00Z", .thisMonth(offsetMonths: -13), "2023-12-01", "2024-01-01"),
        resolution("2025-01-01T00:30:00Z", .thisMonth(offsetMonths: 12), "2026-01-01", "2026-02-01"),
        resolution("2025-01-01T00:30:00Z", .thisYear(offsetYears: -1), "2024-01-01", "2025-01-01"),
        resolution("2025-01-01T00:30:00Z", .thisWeek(offsetWeeks: 0), "2024-12-29", "2025-01-05"),
        resolution("2024-12-31T23:59:59Z", .thisYear(offsetYears: 1), "2025-01-01", "2026-01-01"),
        // A time zone west of UTC: 03:00Z on Jan 1st is still Dec 31st in New York.
        resolution("2025-01-01T03:00:00Z", zone: "America/New_York", .today(offsetDays: 0), "2024-12-31T05:00:00Z", "2025-01-01T05:00:00Z"),
        resolution("2025-01-01T03:00:00Z", zone: "America/New_York", .thisMonth(offsetMonths: 0), "2024-12-01T05:00:00Z", "2025-01-01T05:00:00Z"),
        resolution("2025-01-01T03:00:00Z", zone: "America/New_York", .thisYear(offsetYears: 0), "2024-01-01T05:00:00Z", "2025-01-01T05:00:00Z"),
        // East of UTC with a half-hour offset: 20:00Z is already the next day in Kolkata.
        resolution("2025-06-18T20:00:00Z", zone: "Asia/Kolkata", .today(offsetDays: 0), "2025-06-18T18:30:00Z", "2025-06-19T18:30:00Z"),
        resolution("2025-06-18T20:00:00Z", zone: "Asia/Kolkata", .yesterday, "2025-06-17T18:30:00Z", "2025-06-18T18:30:00Z"),
        // Daylight saving: the spring-forward day is 23 hours long, the fall-back day 25.
        resolution("2025-03-09T17:00:00Z", zone: "America/New_York", .today(offsetDays: 0), "2025-03-09T05:00:00Z", "2025-03-10T04:00:00Z"),
        resolution("2025-11-02T17:00:00Z", zone: "America/New_York", .today(offsetDays: 0), "2025-11-02T04:00:00Z", "2025-11-03T05:00:00Z"),
        resolution("2025-03-12T17:00:00Z", zone: "America/New_York", .thisWeek(offsetWeeks: 0), "2025-03-09T05:00:00Z", "2025-03-16T04:00:00Z"),
        resolution("2025-06-18T12:00:00Z", zone: "Europe/Paris", .thisYear(offsetYears: 0), "2024-12-31T23:00:00Z", "2025-12-31T23:00:00Z"),
        // Monday first.
        resolution("2025-06-18T15:00:00Z", firstWeekday: 2, .thisWeek(offsetWeeks: 0), "2025-06-16", "2025-06-23"),
        resolution("2025-06-18T15:00:00Z", firstWeekday: 2, .lastWeek, "2025-06-09", "2025-06-16"),
        resolution("2025-06-15T15:00:00Z", firstWeekday: 2, .thisWeek(offsetWeeks: 0), "2025-06-09", "2025-06-16"),
        resolution("2025-06-16T00:00:00Z", firstWeekday: 2, .thisWeek(offsetWeeks: 0), "2025-06-16", "2025-06-23"),
        resolution("2025-06-15T23:59:59Z", firstWeekday: 1, .thisWeek(offsetWeeks: 0), "2025-06-15", "2025-06-22"),
        resolution("2025-06-18T15:00:00Z", firstWeekday: 7, .thisWeek(offsetWeeks: 0), "2025-06-14", "2025-06-21"),
        resolution("2025-06-18T15:00:00Z", firstWeekday: 4, .thisWeek(offsetWeeks: 0), "2025-06-18", "2025-06-25"),
        resolution("2025-06-18T15:00:00Z", firstWeekday: 9, .thisWeek(offsetWeeks: 0), "2025-06-16", "2025-06-23"),
        // Monday first in Tokyo: Monday 00:30 local is Sunday 15:30Z.
        resolution("2025-06-15T15:30:00Z", zone: "Asia/Tokyo", firstWeekday: 2, .thisWeek(offsetWeeks: 0), "2025-06-15T15:00:00Z", "2025-06-22T15:00:00Z"),
        // Far away years.
        resolution("2025-06-18T15:00:00Z", .thisYear(offsetYears: -2025), "0000-01-01", "0001-01-01"),
        resolution("2025-06-18T15:00:00Z", .thisYear(offsetYears: -1000), "1025-01-01", "1026-01-01"),
        resolution("2025-06-18T15:00:00Z", .thisYear(offsetYears: 200_000), "+202025-01-01", "+202026-01-01"),
    ]

    @Test(arguments: cases)
    func resolves(_ testCase: ResolutionCase) {
        let evaluator = QueryEvaluator(
            now: isoDate(testCase.now), timeZone: TimeZone(identifier: testCase.zone)!, firstWeekday: testCase.firstWeekday)
        let (start, end) = evaluator.resolve(testCase.time)
        #expect(start == isoDate(testCase.start), "\(TimeExpression.iso8601Text(start))")
        #expect(end == testCase.end.map(isoDate), "\(end.map(TimeExpression.iso8601Text) ?? "nil")")
    }

    @Test func firstWeekdayWraps() {
        let now = isoDate("2025-06-18T15:00:00Z")
        #expect(QueryEvaluator(now: now, timeZone: .gmt, firstWeekday: 8).firstWeekday == 1)
        #expect(QueryEvaluator(now: now, timeZone: .gmt, firstWeekday: 0).firstWeekday == 7)
        #expect(QueryEvaluator(now: now, timeZone: .gmt, firstWeekday: -6).firstWeekday == 1)
    }

    @Test func extremeOffsetsAndClocksDoNotTrap() {
        let offsets = [Int.min, Int.min + 1, -1_000_000_000, 1_000_000_000, Int.max]
        for now in [isoDate("2025-06-18T15:00:00Z"), .distantPast, .distantFuture, Date(timeIntervalSinceReferenceDate: 1e300)] {
            for zone in ["UTC", "America/New_York", "Pacific/Kiritimati"] {
                let evaluator = QueryEvaluator(now: now, timeZone: TimeZone(identifier: zone)!, firstWeekday: 2)
                for offset in offsets {
                    for time: TimeExpression in [
                        .now(offsetSeconds: offset), .today(offsetDays: offset), .thisWeek(offsetWeeks: offset),
                        .thisMonth(offsetMonths: offset), .thisYear(offsetYears: offset),
                    ] {
                        let (start, end) = evaluator.resolve(time)
                        if let end { #expect(start < end, "\(time) \(zone) \(now)") }
                    }
                }
            }
        }
        let evaluator = specEvaluator
        #expect(evaluator.resolve(.today(offsetDays: Int.max)).start > evaluator.now)
        #expect(evaluator.resolve(.thisYear(offsetYears: Int.min)).start < evaluator.now)
    }

    /// Period equality with a time zone: "today" is the local day.
    @Test func periodsFollowTheTimeZone() throws {
        let evaluator = QueryEvaluator(now: isoDate("2025-06-18T20:00:00Z"), timeZone: TimeZone(identifier: "Asia/Kolkata")!)
        let today = try QueryParser.parse("x == $time.today")
        let lateUTC = SpecItem(id: "1", attributes: ["x": [.date(isoDate("2025-06-18T23:00:00Z"))]])
        let earlyUTC = SpecItem(id: "2", attributes: ["x": [.date(isoDate("2025-06-18T10:00:00Z"))]])
        #expect(evaluator.matches(today, lateUTC))
        #expect(!evaluator.matches(today, earlyUTC))
        #expect(evaluator.matches(try QueryParser.parse("x == $time.yesterday"), earlyUTC))
        #expect(specEvaluator.matches(today, earlyUTC))
        #expect(specEvaluator.matches(today, lateUTC))  // both are June 18 in UTC
    }

    @Test func isoParsing() {
        let cases: [(String, String?)] = [
            ("2025-06-18T15:00:00Z", "2025-06-18T15:00:00Z"),
            ("2025-06-18t15:00:00z", "2025-06-18T15:00:00Z"),
            ("2025-06-18 15:00:00 +0800", "2025-06-18T07:00:00Z"),
            ("2025-06-18T15:00:00+08", "2025-06-18T07:00:00Z"),
            ("2025-06-18T15:00:00-03:30", "2025-06-18T18:30:00Z"),
            ("2025-06-18T15:00:00,5Z", "2025-06-18T15:00:00.5Z"),
            ("  2025-06-18  ", "2025-06-18T00:00:00Z"),
            ("2024-02-29", "2024-02-29T00:00:00Z"),
            ("2025-02-29", nil), ("2025-6-18", nil), ("25-06-18", nil), ("2025-06-18T15", nil),
            ("2025-06-18T15:00:60Z", nil), ("2025-06-18T24:00:00Z", nil), ("2025-06-18T15:00:00+", nil),
            ("2025-06-18T15:00:00+0", nil), ("2025-06-18T15:00:00.Z", nil), ("2025-06-18Z", nil), ("", nil),
            ("12025-06-18", nil), ("+12025-06-18", "+12025-06-18T00:00:00Z"), ("-0001-12-31", "-0001-12-31T00:00:00Z"),
            ("2025-06-18T15:00:00Zjunk", nil), ("today", nil),
        ]
        for (text, expected) in cases {
            let date = TimeExpression.parseISO8601(text)
            #expect(date.map(TimeExpression.iso8601Text) == expected, "\(text)")
        }
    }
}
