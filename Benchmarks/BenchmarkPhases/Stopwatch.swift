/// Wall-clock timing on the monotonic clock.
package struct Stopwatch {
    private let clock = ContinuousClock()
    private var start: ContinuousClock.Instant

    package init() { start = clock.now }

    package var elapsed: Duration { clock.now - start }
    package var elapsedSeconds: Double { elapsed.seconds }
    package var elapsedMilliseconds: Double { elapsed.seconds * 1_000 }

    package mutating func restart() { start = clock.now }
}

extension Duration {
    package var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
