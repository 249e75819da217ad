#!/usr/bin/env python3
"""BENCHMARKS.md's two engine tables from spotlight-bench's --json files.

    python3 Benchmarks/tables.py engine run.json             # the engine beside FTS5 and Tantivy
    python3 Benchmarks/tables.py growth run.json run10m.json  # growth to 10M items
    python3 Benchmarks/tables.py batch run.json              # indexing in one batch beside Tantivy

`engine` prints, per scale, every figure of every engine in the file (FTS5,
Tantivy and Tantivy committing left blank when the run left them out) and
the engine's ratio to each: for latencies p50 over p50 and p99 over p99,
otherwise the plain quotient. `growth` takes the engine's 63,666 and 1M
runs from the first file and the engine's and Tantivy's 10M runs from the
second. Indexing items/s is the speed run's in `engine` and the streamed
run's (read as it goes) in `growth`, the only one past 1M. `batch` sets
the indexing figures of `engine-batch` (the whole load in one batch, one
commit at its end, as Tantivy's) beside the engine's calls and Tantivy."""
import json
import sys

PEERS = [("fts5", "FTS5"), ("tantivy", "Tantivy"), ("tantivy-commits", "Tantivy committing")]
KINDS = ["word", "prefix", "multi", "substring", "attribute"]


def runs(path):
    return {(run["engine"], run["scale"]): run for run in json.load(open(path))["runs"]}


def count(value):
    return f"{value:,.0f}"


def megabytes(value):
    return f"{value:.1f} MB" if value < 100 else f"{value:,.0f} MB"


def size(value):
    mb = value / 1e6
    return f"{mb:.2f} MB" if mb < 10 else (f"{mb:.1f} MB" if mb < 100 else f"{mb:,.0f} MB")


def millis(value):
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}" if value >= 1 else f"{value:.3f}"


def ratio(a, b):
    if a is None or not b:
        return ""
    value = a / b
    return f"{value:.2f}" if value < 100 else f"{value:.0f}"


def engine_table(path):
    by = runs(path)
    scales = sorted({scale for (engine, scale) in by if engine == "engine"})
    names = " | ".join(name for _, name in PEERS)
    quotients = " | ".join(f"engine ÷ {name}" for _, name in PEERS)
    lines = [f"| items | metric | engine | {names} | {quotients} |",
             "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for scale in scales:
        row_runs = [by.get((engine, scale)) for engine in ["engine"] + [key for key, _ in PEERS]]
        rows = []

        def row(metric, value, shown, quotient=True):
            values = [value(run) if run else None for run in row_runs]
            cells = [shown(v) if v is not None else "" for v in values]
            ratios = [ratio(values[0], v) if quotient and v is not None else "" for v in values[1:]]
            rows.append((metric, cells + ratios))

        def indexing(key):
            return lambda run: run["indexing"].get(key)

        row("indexing, items/s", indexing("itemsPerSecond"), count)
        row("  (read as it goes)", lambda run: run["indexing"].get("streamedItemsPerSecond") or run["indexing"]["itemsPerSecond"], count)
        row("indexing CPU µs/item", lambda run: run["indexing"]["cpuSeconds"] / run["indexing"]["items"] * 1e6, lambda v: f"{v:.1f}")
        row("cores busy while indexing", lambda run: run["indexing"]["cpuSeconds"] / run["indexing"]["seconds"], lambda v: f"{v:.3g}", False)
        row("store on disk", indexing("storeBytes"), size)
        row("text index", indexing("textIndexBytes"), size)
        row("text index ÷ raw text", lambda run: run["indexing"]["textIndexBytes"] / run["indexing"]["rawTextBytes"], lambda v: f"{v:.3g}×")
        row("indexing peak RSS", indexing("peakRSSMB"), megabytes)
        row("  (before indexing)", indexing("corpusRSSMB"), megabytes, False)
        row("query peak RSS", lambda run: run["queryPeakRSSMB"], megabytes)
        row("open + first query", lambda run: run["openAndFirstQueryMs"], lambda v: millis(v) + " ms")
        for kind in KINDS:
            stats = [run["queries"].get(kind) if run else None for run in row_runs]
            cells = [f"{millis(s['p50'])} / {millis(s['p99'])} ms" if s else "" for s in stats]
            ratios = [f"{ratio(stats[0]['p50'], s['p50'])} / {ratio(stats[0]['p99'], s['p99'])}" if s and stats[0] else "" for s in stats[1:]]
            rows.append((f"{kind} p50 / p99", cells + ratios))
        for index, (metric, cells) in enumerate(rows):
            label = f"{scale:,}" if index == 0 else ""
            lines.append(f"| {label} | {metric} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def batch_table(path):
    by = runs(path)
    scales = sorted({scale for (engine, scale) in by if engine == "engine-batch"})
    lines = ["| items | metric | engine, a commit a call | engine, one batch | Tantivy | one batch ÷ Tantivy | one batch ÷ a commit a call |",
             "| ---: | --- | ---: | ---: | ---: | ---: | ---: |"]
    metrics = [
        ("indexing, items/s", lambda run: run["indexing"]["itemsPerSecond"], count),
        ("  (read as it goes)", lambda run: run["indexing"].get("streamedItemsPerSecond") or run["indexing"]["itemsPerSecond"], count),
        ("indexing CPU µs/item", lambda run: run["indexing"]["cpuSeconds"] / run["indexing"]["items"] * 1e6, lambda v: f"{v:.1f}"),
        ("indexing peak RSS", lambda run: run["indexing"]["peakRSSMB"], megabytes),
        ("store on disk", lambda run: run["indexing"]["storeBytes"], size),
    ]
    for scale in scales:
        engine, batch, tantivy = (by.get((name, scale)) for name in ["engine", "engine-batch", "tantivy"])
        for index, (metric, value, shown) in enumerate(metrics):
            values = [value(run) if run else None for run in (engine, batch, tantivy)]
            cells = [shown(v) if v is not None else "" for v in values]
            cells += [ratio(values[1], values[2]) if values[2] else "", ratio(values[1], values[0]) if values[0] else ""]
            label = f"{scale:,}" if index == 0 else ""
            lines.append(f"| {label} | {metric} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def growth_table(path, path10m):
    first, second = runs(path), runs(path10m)
    wanted = [(first, path, "engine", 63666), (first, path, "engine", 1000000),
              (second, path10m, "engine", 10000000), (second, path10m, "tantivy", 10000000)]
    missing = [f"{file} has no {engine} run at {scale:,} items" for by, file, engine, scale in wanted if (engine, scale) not in by]
    if missing:
        sys.exit("tables.py growth: " + "; ".join(missing))
    columns = [by[(engine, scale)] for by, _, engine, scale in wanted]
    lines = ["| figure | engine 63,666 | engine 1M | engine 10M | 1M ÷ 63,666 | 10M ÷ 1M | Tantivy 10M | engine ÷ Tantivy at 10M |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]

    def grows(a, b):
        return f"{a / b:.1f}"

    def row(metric, value, shown):
        v = [value(run) for run in columns]
        lines.append(f"| {metric} | {shown(v[0])} | {shown(v[1])} | {shown(v[2])} | {grows(v[1], v[0])} | {grows(v[2], v[1])} | "
                     f"{shown(v[3])} | {v[2] / v[3]:.2f} |")

    row("indexing, items/s (read as it goes)",
        lambda run: run["indexing"].get("streamedItemsPerSecond") or run["indexing"]["itemsPerSecond"], count)
    row("store on disk", lambda run: run["indexing"]["storeBytes"], size)
    row("text index", lambda run: run["indexing"]["textIndexBytes"], size)
    row("indexing peak RSS", lambda run: run["indexing"]["peakRSSMB"], megabytes)
    row("query peak RSS", lambda run: run["queryPeakRSSMB"], megabytes)
    row("open + first query", lambda run: run["openAndFirstQueryMs"], lambda v: millis(v) + " ms")
    for kind in KINDS:
        s = [run["queries"][kind] for run in columns]
        lines.append(f"| {kind} p50 / p99 | " + " | ".join(f"{millis(x['p50'])} / {millis(x['p99'])} ms" for x in s[:3])
                     + f" | {grows(s[1]['p50'], s[0]['p50'])} / {grows(s[1]['p99'], s[0]['p99'])}"
                     + f" | {grows(s[2]['p50'], s[1]['p50'])} / {grows(s[2]['p99'], s[1]['p99'])}"
                     + f" | {millis(s[3]['p50'])} / {millis(s[3]['p99'])} ms | {s[2]['p50'] / s[3]['p50']:.2f} / {s[2]['p99'] / s[3]['p99']:.2f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "engine":
        print(engine_table(sys.argv[2]))
    elif len(sys.argv) == 3 and sys.argv[1] == "batch":
        print(batch_table(sys.argv[2]))
    elif len(sys.argv) == 4 and sys.argv[1] == "growth":
        print(growth_table(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(__doc__)
