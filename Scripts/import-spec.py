#!/usr/bin/env python3
"""Imports the parts of the shared specs that the tests and scripts check into the
repository, so that a clone is enough to run them:

- Spec/query-conformance.tsv: the query language's conformance cases (§9.4 of
  shared/spec/query-language.md, its ```tsv block as it stands): query, TAB,
  expected ids (comma-separated), `-` for no match, `ERROR` for an invalid query.
  Read by Tests/SpotlightQueryTests and Tests/SpotlightIndexTests/QueryEngineTests.
- Spec/apple-api-tables.md: the headings and table rows of §1–§12 of
  shared/spec/apple-api.md (the Apple API names and signatures, the §6a property
  tables), without the prose. Read by Scripts/check-api-coverage.py and, when
  ../shared is absent, by Scripts/generate-attribute-set.py.

Usage: python3 Scripts/import-spec.py [--spec-dir DIR] [--check]
  --spec-dir  where query-language.md and apple-api.md are (default ../shared/spec)
  --check     write nothing; exit 1 when a repository copy differs from what the spec gives
Without the spec directory it says so and leaves the copies as they are.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def argument(flag, default):
    return sys.argv[sys.argv.index(flag) + 1] if flag in sys.argv else default


def conformance_table(text):
    """The lines of the ```tsv block after the "### 9.4" heading."""
    section = text.index("### 9.4")
    start = text.index("```tsv\n", section) + len("```tsv\n")
    end = text.index("\n```", start)
    rows = text[start:end].split("\n")
    for number, row in enumerate(rows, 1):
        if "\t" not in row:
            raise SystemExit(f"query-language.md §9.4 row {number} has no TAB: {row!r}")
    return "\n".join(rows) + "\n"


def api_tables(text, source_name):
    """Headings and table rows of the numbered sections 1–12 (subsections included)."""
    out = [
        f"<!-- Imported by Scripts/import-spec.py from {source_name}: the headings and tables of §1–§12,",
        "     without the prose. Do not edit; re-run the script when the spec changes. -->",
        "",
    ]
    in_scope = False
    for line in text.splitlines():
        heading = re.match(r"^(#{2,4}) (.*)", line)
        if heading:
            number = re.match(r"(\d+)", heading.group(2))
            if heading.group(1) == "##":
                in_scope = bool(number) and 1 <= int(number.group(1)) <= 12
            if in_scope:
                if out[-1] != "":
                    out.append("")
                out += [line, ""]
            continue
        if in_scope and line.startswith("|"):
            out.append(line)
    while out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def main():
    spec_dir = Path(argument("--spec-dir", ROOT.parent / "shared" / "spec"))
    check = "--check" in sys.argv
    sources = {name: spec_dir / name for name in ("query-language.md", "apple-api.md")}
    missing = [str(path) for path in sources.values() if not path.is_file()]
    if missing:
        print(f"no {', '.join(missing)}: the repository's copies under Spec/ stay as they are", file=sys.stderr)
        return 0
    outputs = {
        ROOT / "Spec" / "query-conformance.tsv":
            conformance_table(sources["query-language.md"].read_text(encoding="utf-8")),
        ROOT / "Spec" / "apple-api-tables.md":
            api_tables(sources["apple-api.md"].read_text(encoding="utf-8"), "shared/spec/apple-api.md"),
    }
    stale = []
    for path, text in outputs.items():
        current = path.read_text(encoding="utf-8") if path.is_file() else None
        if current == text:
            continue
        stale.append(path.relative_to(ROOT))
        if not check:
            path.write_text(text, encoding="utf-8")
    for path in stale:
        print(f"{'differs from the spec' if check else 'written'}: {path}")
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
