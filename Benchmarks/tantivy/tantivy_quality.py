#!/usr/bin/env python3
"""Tantivy's answers to the quality benchmark's queries (spotlight-bench quality).

Usage: tantivy_quality.py CORPUS.jsonl.gz QUERIES.jsonl OUT.jsonl

Indexes the Debian corpus in memory (title, summary, description and
keywords, the text the engine searches), then answers each query (one JSON
object a line: kind, text) as the issue measured Tantivy: every word must
match some field, the last word as a prefix; for typo queries each word is a
fuzzy term (one edit, a transposition counting one, at every word length).
Writes one JSON list of the top 10 package ids per query, in order.
"""
import gzip
import json
import re
import sys

import tantivy

FIELDS = ("title", "summary", "description", "keywords")
LIMIT = 10


def words(text):
    """What Tantivy's default tokenizer makes of text: alphanumeric runs, lowercased."""
    return re.findall(r"[^\W_]+", text.lower())


def main():
    corpus, queries_path, out_path = sys.argv[1:4]
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("id", stored=True, tokenizer_name="raw")
    for field in FIELDS:
        builder.add_text_field(field, stored=False)
    schema = builder.build()
    index = tantivy.Index(schema)
    writer = index.writer(heap_size=256_000_000, num_threads=1)
    with gzip.open(corpus, "rt", encoding="utf-8") as lines:
        for line in lines:
            package = json.loads(line)
            writer.add_document(tantivy.Document(
                id=package["id"],
                title=package.get("title") or "",
                summary=package.get("summary") or "",
                description=package.get("description") or "",
                keywords=" ".join(package.get("keywords") or []),
            ))
    writer.commit()
    writer.wait_merging_threads()
    index.reload()
    searcher = index.searcher()

    def query(kind, text):
        typed = words(text)
        if not typed:
            return None
        musts = []
        for position, word in enumerate(typed):
            last = position == len(typed) - 1
            distance = 1 if kind == "typo" else 0
            per_field = []
            for field in FIELDS:
                if distance or last:
                    term = tantivy.Query.fuzzy_term_query(schema, field, word, distance=distance,
                                                          transposition_cost_one=True, prefix=last)
                else:
                    term = tantivy.Query.term_query(schema, field, word)
                per_field.append((tantivy.Occur.Should, term))
            musts.append((tantivy.Occur.Must, tantivy.Query.boolean_query(per_field)))
        return tantivy.Query.boolean_query(musts)

    with open(queries_path, encoding="utf-8") as queries, open(out_path, "w", encoding="utf-8") as out:
        for line in queries:
            asked = json.loads(line)
            built = query(asked["kind"], asked["text"])
            ids = []
            if built is not None:
                for _, address in searcher.search(built, LIMIT).hits:
                    ids.append(searcher.doc(address)["id"][0])
            out.write(json.dumps(ids) + "\n")


if __name__ == "__main__":
    main()
