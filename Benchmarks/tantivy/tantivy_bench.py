#!/usr/bin/env python3
"""Tantivy beside the engine and FTS5 in the engine benchmark (spotlight-bench).

Usage: tantivy_bench.py index DOCS.jsonl INDEX_DIR [--commit-every N] [--store] [--preload]
       tantivy_bench.py query INDEX_DIR QUERIES.jsonl ROUNDS

spotlight-bench runs each phase in a process of its own, so that peak RSS
is the phase's, and writes both inputs: DOCS.jsonl holds the scale's items
as the engine is given them (id, title, summary, description, keywords
joined by spaces, section, installedSize), QUERIES.jsonl the query set
(kind, words, infix, section, installedSizeAbove). Each phase prints one
JSON object on stdout; milliseconds, MB (MiB) and bytes.

By default the index commits once, at the end, and stores only the ids.
`--preload` decodes every line before the clock starts (the speed run).
`--commit-every N --store` has Tantivy do the engine's job: a commit after
every N items (the engine and FTS5 commit every 1,000: each call of
`index` is durable when it returns), and the text fields stored (the
engine keeps every item, attributes and all, to return it).
"""
import itertools
import json
import os
import re
import sys
import time

import tantivy

# The text the engine searches, boosted by the engine's column weights
# (RankingWeights: title 10, keywords 5, contentDescription 4, other text 1).
BOOSTS = {"title": 10.0, "keywords": 5.0, "summary": 4.0, "description": 1.0}
# What the engine's and FTS5's substring queries look in.
SUBSTRING_FIELDS = ("title", "summary")
LIMIT = 20
BATCH = 1_000
# One indexing thread, as the engine indexes a batch on the caller's thread
# (both merge in the background); Tantivy's default heap.
HEAP_BYTES = 128_000_000
THREADS = 1


def peak_rss_mb():
    """This process's peak RSS since it exec'd Python (VmHWM): getrusage's
    ru_maxrss keeps the peak of the process that spawned it (the phase's
    Swift child, holding the corpus) across exec."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM in /proc/self/status")


def make_schema(store=False):
    """Frequencies without positions (no query here needs them; the engine
    keeps none); with `store`, every field stored as well."""
    builder = tantivy.SchemaBuilder()
    builder.add_bytes_field("id", stored=True, indexed=False)
    for field in BOOSTS:
        builder.add_text_field(field, index_option="freq", stored=store)
    builder.add_text_field("section", tokenizer_name="raw", index_option="basic", stored=store)
    builder.add_integer_field("installedSize", fast=True, stored=store)
    return builder.build()


def file_bytes(directory):
    """(every file, the files that answer text queries: not the stored ids nor the fast fields)."""
    total = text = 0
    for name in os.listdir(directory):
        size = os.path.getsize(os.path.join(directory, name))
        total += size
        if not name.endswith((".store", ".fast")):
            text += size
    return total, text


def index(docs_path, directory, commit_every=0, store=False, preload=False):
    """Times opening the index, making and adding each batch's documents, the
    commits and the merges; not reading and decoding the JSON lines. With
    `commit_every`, a commit after each batch of that many items.

    With `preload`, every line is decoded before the clock starts and the
    clock then runs without a pause to the end of the merges (the speed
    run). Without, each batch is decoded between timed windows (the memory
    run: the items are never all in memory), and the indexing thread works
    unclocked while the next batch is decoded."""
    os.makedirs(directory, exist_ok=True)
    batch_size = commit_every or BATCH
    with open(docs_path, encoding="utf-8") as lines:
        documents = [json.loads(line) for line in lines] if preload else None
        base_rss = peak_rss_mb()
        whole_started, whole_cpu_started = time.perf_counter(), time.process_time()
        started, cpu_started = whole_started, whole_cpu_started
        writer = tantivy.Index(make_schema(store), path=directory).writer(heap_size=HEAP_BYTES, num_threads=THREADS)
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        items = 0
        if preload:
            batches = (documents[start:start + batch_size] for start in range(0, len(documents), batch_size))
        else:
            batches = iter(lambda: [json.loads(line) for line in itertools.islice(lines, batch_size)], [])
        for batch in batches:
            started, cpu_started = time.perf_counter(), time.process_time()
            for item in batch:
                item["id"] = item["id"].encode()
                writer.add_document(tantivy.Document(**item))
            if commit_every:
                writer.commit()
            seconds += time.perf_counter() - started
            cpu += time.process_time() - cpu_started
            items += len(batch)
    started, cpu_started = time.perf_counter(), time.process_time()
    writer.commit()
    writer.wait_merging_threads()
    seconds += time.perf_counter() - started
    cpu += time.process_time() - cpu_started
    if preload:
        seconds, cpu = time.perf_counter() - whole_started, time.process_time() - whole_cpu_started
    store, text = file_bytes(directory)
    return {"items": items, "seconds": seconds, "cpuSeconds": cpu, "peakRSSMB": peak_rss_mb(), "baseRSSMB": base_rss,
            "storeBytes": store, "textIndexBytes": text}


def term(schema, field, word, prefix):
    if prefix:
        return tantivy.Query.fuzzy_term_query(schema, field, word, distance=0, prefix=True)
    return tantivy.Query.term_query(schema, field, word)


def build(schema, query):
    """word: every word exact; prefix: every word a prefix; multi: every word,
    the last a prefix; each word in any text field, BM25 × the field's boost
    (a prefix scores its boost alone, as Tantivy scores automaton queries).
    substring: `.*infix.*` over the title's and summary's words. attribute:
    a term of the raw `section`, a range of the fast field `installedSize`."""
    kind = query["kind"]
    if kind in ("word", "prefix", "multi"):
        words = query["words"]
        musts = []
        for position, word in enumerate(words):
            prefix = kind == "prefix" or (kind == "multi" and position == len(words) - 1)
            fields = [(tantivy.Occur.Should, tantivy.Query.boost_query(term(schema, field, word, prefix), boost))
                      for field, boost in BOOSTS.items()]
            musts.append((tantivy.Occur.Must, tantivy.Query.boolean_query(fields)))
        return tantivy.Query.boolean_query(musts)
    if kind == "substring":
        pattern = ".*" + re.escape(query["infix"]) + ".*"
        return tantivy.Query.boolean_query([(tantivy.Occur.Should, tantivy.Query.regex_query(schema, field, pattern))
                                            for field in SUBSTRING_FIELDS])
    if "section" in query:
        return tantivy.Query.term_query(schema, "section", query["section"])
    return tantivy.Query.range_query(schema, "installedSize", tantivy.FieldType.Integer,
                                     lower_bound=query["installedSizeAbove"], include_lower=False)


def search(directory, queries_path, rounds):
    """Opens the index, answers the first query, then one warm-up pass and
    `rounds` timed passes; each query's time is building it in Python,
    searching and reading its top 20 ids."""
    with open(queries_path, encoding="utf-8") as lines:
        queries = [json.loads(line) for line in lines]
    started = time.perf_counter()
    opened = tantivy.Index.open(directory)
    searcher, schema = opened.searcher(), opened.schema
    open_ms = (time.perf_counter() - started) * 1000

    def answer(query):
        hits = searcher.search(build(schema, query), LIMIT, count=False).hits
        return [searcher.doc(address)["id"][0] for _, address in hits]

    answer(queries[0])
    first_ms = (time.perf_counter() - started) * 1000
    non_empty, results, samples = {}, {}, {}
    for query in queries:
        ids = answer(query)
        non_empty[query["kind"]] = non_empty.get(query["kind"], 0) + (1 if ids else 0)
        results[query["kind"]] = results.get(query["kind"], 0) + len(ids)
    for _ in range(rounds):
        for query in queries:
            started = time.perf_counter_ns()
            answer(query)
            samples.setdefault(query["kind"], []).append((time.perf_counter_ns() - started) / 1e6)
    return {"openMs": open_ms, "openAndFirstQueryMs": first_ms, "peakRSSMB": peak_rss_mb(),
            "samples": samples, "nonEmpty": non_empty, "results": results}


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "index":
        options, commit_every, store, preload = sys.argv[4:], 0, False, False
        while options:
            option = options.pop(0)
            if option == "--commit-every" and options:
                commit_every = int(options.pop(0))
            elif option == "--store":
                store = True
            elif option == "--preload":
                preload = True
            else:
                sys.exit(__doc__)
        report = index(sys.argv[2], sys.argv[3], commit_every, store, preload)
    elif len(sys.argv) == 5 and sys.argv[1] == "query":
        report = search(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        sys.exit(__doc__)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
