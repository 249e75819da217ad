#!/usr/bin/env python3
"""Checks that every Apple API name in ../shared/spec/apple-api.md is either in
OpenCoreSpotlight's sources or listed in API-GAPS.md.

Usage: python3 Scripts/check-api-coverage.py [--spec PATH]
Prints the names that are neither, and exits 1 when there are any.
"""
import glob
import re
import sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
spec_path = Path(sys.argv[sys.argv.index("--spec") + 1]) if "--spec" in sys.argv else root.parent / "shared/spec/apple-api.md"
spec = spec_path.read_text(encoding="utf-8")
sources = "".join(Path(f).read_text(encoding="utf-8") for pattern in ("Sources/OpenCoreSpotlight/*.swift", "Sources/UniformTypeIdentifiers/*.swift")
                  for f in glob.glob(str(root / pattern)))
gaps = (root / "API-GAPS.md").read_text(encoding="utf-8")

section = ""
missing = []
for line in spec.splitlines():
    heading = re.match(r"^#{2,4} (.*)", line)
    if heading:
        section = heading.group(1)
        continue
    if section.startswith("16.") or not line.startswith("| "):
        continue
    cells = line.split("|")
    # A row names its API in backticks (`name`); rows that use a plain label
    # ("didThrottle (optional)") name it in their signature (`func searchableIndexDidThrottle(`).
    names = re.findall(r"`([^`]+)`", cells[1])
    if not names and len(cells) > 2:
        names = re.findall(r"(?:func|var) (\w+)", cells[2])
    for name in names:
        identifier = re.split(r"[(.:\s]", name.strip().lstrip("+-"))[0]
        if not re.match(r"^[A-Za-z_]\w*$", identifier) or identifier in ("name", "NSSecureCoding"):
            continue
        candidates = [identifier]
        if identifier.startswith("is") and identifier[2:3].isupper():
            # The ObjC getter spelling of a Bool property (`isUserCreated` for `userCreated`).
            candidates.append(identifier[2].lower() + identifier[3:])
        if any(re.search(r"\b" + re.escape(c) + r"\b", sources) or c in gaps for c in candidates):
            continue
        missing.append(f"{section}: {name.strip()}")

for entry in missing:
    print(entry)
print(f"{len(missing)} API name(s) neither implemented nor listed in API-GAPS.md", file=sys.stderr)
sys.exit(1 if missing else 0)
