#!/usr/bin/python3
"""The second reference of bench_telemetry: python3-prometheus-client's generate_latest()
rendering a registry of the same families and label sets (bench/README.md, "telemetry").
Prints one JSON line: samples, bytes, median microseconds per scrape."""
import json
import statistics
import sys
import time

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

LATENCY = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)
CYCLE = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120)


def populate(r):
    polls = Counter("skinpulse_source_polls", "Polls.", ["source", "result"], registry=r)
    accepted = Counter("skinpulse_source_points_accepted", "Accepted.", ["source"], registry=r)
    rejected = Counter("skinpulse_source_points_rejected", "Rejected.", ["source", "reason"],
                       registry=r)
    outliers = Counter("skinpulse_source_outliers", "Outliers.", ["source"], registry=r)
    last = Gauge("skinpulse_source_last_success_timestamp_seconds", "Last.", ["source"], registry=r)
    interval = Gauge("skinpulse_source_interval_seconds", "Interval.", ["source"], registry=r)
    for s in range(30):
        source = "market_%d" % s
        for result in ("ok", "failed", "timeout", "rate_limited", "store_failed"):
            polls.labels(source, result).inc(s * 7 + 3)
        accepted.labels(source).inc(123456 + s)
        for reason in ("not in catalogue", "price unreadable or not positive",
                       "empty market_hash_name"):
            rejected.labels(source, reason).inc(17)
        outliers.labels(source).inc(3)
        last.labels(source).set(1764045000 + s)
        interval.labels(source).set(60)
    cycle = Histogram("skinpulse_cycle_duration_seconds", "Cycle.", buckets=CYCLE, registry=r)
    stages = Histogram("skinpulse_cycle_stage_duration_seconds", "Stages.", ["stage"],
                       buckets=CYCLE, registry=r)
    for i in range(500):
        cycle.observe(0.05 * (i % 40))
    for stage in ("fetch", "parse", "normalise", "store", "latest_prices", "metrics", "publish",
                  "fanout"):
        for i in range(100):
            stages.labels(stage).observe(0.001 * i)
    requests = Counter("skinpulse_http_requests", "Requests.", ["route", "method", "status"],
                       registry=r)
    latency = Histogram("skinpulse_http_request_duration_seconds", "Latency.", ["route", "method"],
                        buckets=LATENCY, registry=r)
    for route in range(60):
        path = "/api/v1/feature_%d/:id" % route
        for status in ("200", "304", "404", "500"):
            requests.labels(path, "GET", status).inc(1000 + route)
        for i in range(50):
            latency.labels(path, "GET").observe(0.0002 * i)
    Gauge("skinpulse_ws_clients", "Clients.", registry=r).set(10000)
    Counter("skinpulse_ws_sent_bytes", "Bytes.", registry=r).inc(987654321)
    store = Histogram("skinpulse_store_operation_duration_seconds", "Store.", ["mode"],
                      buckets=LATENCY, registry=r)
    shared = Histogram("skinpulse_shared_store_operation_duration_seconds", "Shared.",
                       ["backend", "operation"], buckets=LATENCY, registry=r)
    for mode in ("read", "write"):
        store.labels(mode).observe(0.002)
    for op in ("ping", "get", "set", "set_if_absent", "remove", "take", "ttl_left", "increment",
               "acquire_slot"):
        shared.labels("redis", op).observe(0.0004)
    imports = Counter("skinpulse_imports", "Imports.", ["result"], registry=r)
    for result in ("ok", "not_linked", "invalid_platform_id", "cooldown", "upstream_failed",
                   "store_unavailable", "error"):
        imports.labels(result).inc(5)


def main():
    iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    registry = CollectorRegistry()
    populate(registry)
    page = generate_latest(registry)
    # Without the client's *_created samples, which our renderer does not write either.
    samples = sum(1 for line in page.decode().splitlines()
                  if line and not line.startswith("#") and "_created" not in line.split("{")[0])
    times = []
    for _ in range(iterations):
        start = time.perf_counter()
        generate_latest(registry)
        times.append((time.perf_counter() - start) * 1e6)
    print(json.dumps({"samples": samples, "bytes": len(page),
                      "python_client_median_us": round(statistics.median(times), 1)}))


if __name__ == "__main__":
    main()
