import Foundation
import Metrics
import Prometheus

/// The service's metrics, through swift-metrics into a Prometheus registry of
/// its own (not the process-wide `MetricsSystem`, so several services — tests —
/// can live in one process), served at `/v1/metrics` in Prometheus's text format.
///
/// ```swift
/// let metrics = ServiceMetrics()
/// metrics.request(route: "/v1/search", status: 200, seconds: 0.002)
/// print(metrics.exposition())   // openspotlight_requests_total{route="/v1/search",status="200"} 1
/// ```
final class ServiceMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        let fast: [Duration] = [.microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
                                .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(500), .seconds(1), .seconds(5)]
        factory.defaultDurationHistogramBuckets = fast
        self.factory = factory
    }

    /// One HTTP request answered.
    func request(route: String, status: Int, seconds: Double) {
        Counter(label: "openspotlight_requests_total", dimensions: [("route", route), ("status", String(status))], factory: factory).increment()
        Metrics.Timer(label: "openspotlight_request_duration_seconds", dimensions: [("route", route)], factory: factory)
            .recordNanoseconds(Int64(seconds * 1e9))
    }

    /// One search answered (over HTTP, the live socket or D-Bus), and the apps that could not be read.
    func search(via channel: String, seconds: Double, unavailableApps: Int, fromMemory: Bool) {
        Metrics.Timer(label: "openspotlight_search_duration_seconds", dimensions: [("via", channel)], factory: factory)
            .recordNanoseconds(Int64(seconds * 1e9))
        if fromMemory {
            Counter(label: "openspotlight_searches_answered_from_memory_total", dimensions: [], factory: factory).increment()
        }
        if unavailableApps > 0 {
            Counter(label: "openspotlight_unavailable_app_searches_total", dimensions: [], factory: factory).increment(by: unavailableApps)
        }
    }

    /// A live search replaced by the next keystroke before it was answered.
    func searchCancelled() {
        Counter(label: "openspotlight_searches_cancelled_total", dimensions: [], factory: factory).increment()
    }

    /// Live search connections open now.
    func liveConnections(_ change: Int) {
        Meter(label: "openspotlight_live_connections", dimensions: [], factory: factory).increment(by: Double(change))
    }

    /// One scheduled maintenance pass.
    func maintenance(deliveries: Int, failed: Bool) {
        Counter(label: "openspotlight_maintenance_runs_total", dimensions: [("outcome", failed ? "failed" : "ok")], factory: factory).increment()
        Counter(label: "openspotlight_maintenance_deliveries_total", dimensions: [], factory: factory).increment(by: deliveries)
    }

    /// A batch of impressions written, and those dropped because too many waited.
    func impressions(written: Int, dropped: Int) {
        if written > 0 { Counter(label: "openspotlight_impressions_recorded_total", dimensions: [], factory: factory).increment(by: written) }
        if dropped > 0 { Counter(label: "openspotlight_impressions_dropped_total", dimensions: [], factory: factory).increment(by: dropped) }
    }

    /// Results opened, Search in App, actions.
    func opened(_ what: String, succeeded: Bool) {
        Counter(label: "openspotlight_opens_total", dimensions: [("what", what), ("outcome", succeeded ? "ok" : "failed")], factory: factory).increment()
    }

    /// Everything, in Prometheus's text exposition format.
    func exposition() -> String {
        registry.emitToString()
    }
}
