public import Foundation

extension QueryEvaluator {
    /// Resolves a `$time` expression against this evaluator's clock, time
    /// zone and first weekday (Gregorian calendar) — spec §6:
    ///
    /// | expression | start | end |
    /// |---|---|---|
    /// | `$time.now(N)` | now + N seconds | `nil` (an instant) |
    /// | `$time.iso(S)` | the date | `nil` |
    /// | `$time.today(N)` | 00:00 of the day N days from today | 00:00 of the next day |
    /// | `$time.yesterday` | `today(-1)` | |
    /// | `$time.this_week(N)` | 00:00 of the first weekday of the week N weeks away | a week later |
    /// | `$time.last_week` | `this_week(-1)` | |
    /// | `$time.this_month(N)` | 00:00 of the 1st of the month N months away | the next month's 1st |
    /// | `$time.this_year(N)` | 00:00 of January 1st of the year N years away | the next year's |
    ///
    /// Periods are `[start, end)`; "00:00" is the start of that day in the
    /// time zone (the first instant of the day when midnight is skipped).
    /// Offsets too large for the calendar are clamped to about ±800,000 years.
    ///
    /// ```swift
    /// let evaluator = QueryEvaluator(now: TimeExpression.parseISO8601("2025-06-18T15:00:00Z")!,
    ///                                timeZone: TimeZone(identifier: "UTC")!)
    /// let (start, end) = evaluator.resolve(.thisWeek(offsetWeeks: 0))
    /// // start 2025-06-15T00:00Z, end 2025-06-22T00:00Z
    /// ```
    public func resolve(_ time: TimeExpression) -> (start: Date, end: Date?) {
        switch time {
        case .now(let seconds):
            return (now.addingTimeInterval(Double(seconds)), nil)
        case .iso(let date):
            return (date, nil)
        case .today(let days):
            return dayPeriod(todayNumber + clamp(days, 300_000_000), length: 1)
        case .yesterday:
            return dayPeriod(todayNumber - 1, length: 1)
        case .thisWeek(let weeks):
            return weekPeriod(clamp(weeks, 40_000_000))
        case .lastWeek:
            return weekPeriod(-1)
        case .thisMonth(let months):
            let (year, month, _) = CivilDate.civil(days: todayNumber)
            let index = year * 12 + (month - 1) + clamp(months, 10_000_000)
            return (startOfMonth(index), startOfMonth(index + 1))
        case .thisYear(let years):
            let (year, _, _) = CivilDate.civil(days: todayNumber)
            let target = year + clamp(years, 800_000)
            return (
                startOfDay(CivilDate.days(year: target, month: 1, day: 1)),
                startOfDay(CivilDate.days(year: target + 1, month: 1, day: 1))
            )
        }
    }

    private func clamp(_ value: Int, _ limit: Int) -> Int {
        min(max(value, -limit), limit)
    }

    /// The local day number (days since 1970-01-01) of `now` in the time zone.
    var todayNumber: Int {
        // Keep absurd clocks within ±950,000 years so the arithmetic stays in range.
        var interval = now.timeIntervalSinceReferenceDate
        if !interval.isFinite { interval = interval.isNaN ? 0 : (interval < 0 ? -3e13 : 3e13) }
        interval = min(max(interval, -3e13), 3e13)
        let local = Int(interval.rounded(.down)) + timeZone.secondsFromGMT(for: now) + CivilDate.referenceDateOffset
        return CivilDate.floorDivide(local, 86_400)
    }

    private func dayPeriod(_ day: Int, length: Int) -> (start: Date, end: Date?) {
        (startOfDay(day), startOfDay(day + length))
    }

    private func weekPeriod(_ weeks: Int) -> (start: Date, end: Date?) {
        let today = todayNumber
        let back = (CivilDate.weekday(days: today) - firstWeekday + 7) % 7
        return dayPeriod(today - back + 7 * weeks, length: 7)
    }

    /// 00:00 of the first day of month `index` (= year × 12 + month − 1).
    private func startOfMonth(_ index: Int) -> Date {
        let year = CivilDate.floorDivide(index, 12)
        let month = index - year * 12 + 1
        return startOfDay(CivilDate.days(year: year, month: month, day: 1))
    }

    /// The first instant of a local day, given as days since 1970-01-01.
    func startOfDay(_ day: Int) -> Date {
        let (year, month, dayOfMonth) = CivilDate.civil(days: day)
        // Foundation's Gregorian calendar is Julian before 1582, so use it only
        // where it agrees with the proleptic day numbers (and knows DST rules).
        if (1600...100_000).contains(year),
            let noon = calendar.date(from: DateComponents(year: year, month: month, day: dayOfMonth, hour: 12))
        {
            return calendar.startOfDay(for: noon)
        }
        let utcMidnight = Double(day * 86_400 - CivilDate.referenceDateOffset)
        let guess = utcMidnight - Double(timeZone.secondsFromGMT(for: Date(timeIntervalSinceReferenceDate: utcMidnight)))
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSinceReferenceDate: guess))
        return Date(timeIntervalSinceReferenceDate: utcMidnight - Double(offset))
    }
}
