/// Wall-clock timing on the monotonic clock.
struct Stopwatch {
    private let clock = ContinuousClock()
    private var start: ContinuousClock.Instant

    init() { start = clock.now }

    var elapsed: Duration { clock.now - start }
    var elapsedSeconds: Double { elapsed.seconds }
    var elapsedMilliseconds: Double { elapsed.seconds * 1_000 }

    mutating func restart() { start = clock.now }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
