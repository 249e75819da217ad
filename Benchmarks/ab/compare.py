#!/usr/bin/env python3
"""Compares the spotlight-bench JSON files Benchmarks/ab/ab.sh wrote: before-*.json against
after-*.json in one directory. Prints, per scale, the median of each figure over the rounds of
each build and the ratio after ÷ before, as a Markdown table."""
import json, sys, glob, statistics, os
d = sys.argv[1]
def load(prefix):
    out = {}
    for f in sorted(glob.glob(os.path.join(d, prefix + '*.json'))):
        for run in json.load(open(f))['runs']:
            if run['engine'] != 'engine': continue
            s = out.setdefault(run['scale'], {})
            def put(k, v):
                if v is not None: s.setdefault(k, []).append(v)
            put('index items/s', run['indexing']['itemsPerSecond'])
            cpu = run['indexing'].get('cpuSeconds')
            if cpu is not None: put('index CPU µs/item', cpu * 1e6 / max(run['indexing']['items'], 1))
            put('index peak RSS MB', run['indexing']['peakRSSMB'])
            put('text index MB', run['indexing']['textIndexBytes'] / 1048576)
            for kind, st in run['queries'].items():
                if st: put(f'{kind} p50', st['p50']); put(f'{kind} p99', st['p99'])
            put('query peak RSS MB', run['queryPeakRSSMB'])
            for name, ql in (run.get('querylang') or {}).items():
                c = ql.get('complete') or {}
                if 'p99' in c: put(f'ql {name} p99', c['p99'])
    return out
b, a = load('before'), load('after')
for scale in sorted(set(b) & set(a)):
    print(f'\n## {scale:,} items  (runs: before {len(next(iter(b[scale].values())))}, after {len(next(iter(a[scale].values())))})')
    print('| figure | before | after | after ÷ before |\n| --- | --- | --- | --- |')
    for k in b[scale]:
        if k not in a[scale]: continue
        mb, ma = statistics.median(b[scale][k]), statistics.median(a[scale][k])
        print(f'| {k} | {mb:.3f} | {ma:.3f} | {ma/mb if mb else float("nan"):.2f} |')
