#!/usr/bin/env python3
"""Checks that every row of the Apple API spec's tables (§1–§12 of shared/spec/apple-api.md,
as imported into Spec/apple-api-tables.md by Scripts/import-spec.py) has a compiler-checked use in Tests/AppleAPIConformanceTests, spelled as
the spec's Swift column spells it, or is listed in API-GAPS.md.

The Swift name of a row comes from its signature column (`func endBatch(withClientState
clientState: Data, completionHandler: …)` → `endBatch(withClientState:completionHandler:)`);
a method with a completion handler also needs its `async` form (`endBatch(withClientState:)`).
Rows whose signature column declares nothing name their members in the first column.
The conformance target's uses are typed references, so the compiler checks labels,
types and optionality; this script checks that no row was left without one.

The MapKit subset that `NSUserActivity.mapItem` needs is specified by the project
itself (Spec/apple-api-mapkit.md, every table in scope) and checked the same way.

Usage: python3 Scripts/check-api-coverage.py [--spec PATH] [--verbose]
(--spec defaults to the repository's Spec/apple-api-tables.md; ../shared/spec/apple-api.md gives the same rows.)
Prints the rows that are neither covered nor listed, and exits 1 when there are any.
"""
import glob
import re
import sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
spec_path = Path(sys.argv[sys.argv.index("--spec") + 1]) if "--spec" in sys.argv else root / "Spec/apple-api-tables.md"
verbose = "--verbose" in sys.argv


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


uses = "\n".join(strip_comments(Path(f).read_text(encoding="utf-8"))
                 for f in sorted(glob.glob(str(root / "Tests/AppleAPIConformanceTests/*.swift"))))
gaps = (root / "API-GAPS.md").read_text(encoding="utf-8")


def split_top_level(text, separator=","):
    """Splits at separators outside (), [], <>."""
    parts, depth, current = [], 0, ""
    for char in text:
        if char in "([<":
            depth += 1
        elif char in ")]>":
            depth -= 1
        if char == separator and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    if current.strip():
        parts.append(current)
    return parts


def parameter_list(signature, start):
    """The text between the parenthesis at `start` and its match."""
    depth = 0
    for index in range(start, len(signature)):
        if signature[index] == "(":
            depth += 1
        elif signature[index] == ")":
            depth -= 1
            if depth == 0:
                return signature[start + 1:index]
    return signature[start + 1:]


def labels(parameters):
    out = []
    for parameter in split_top_level(parameters):
        head = parameter.split(":")[0].split()
        if head:
            out.append(head[0])
    return out


def declared_names(code):
    """Swift names declared in one code span of the signature column."""
    names = []
    for match in re.finditer(r"\b(?:func\s+(`?\w+`?)|(init)\??)\s*\(", code):
        base = (match.group(1) or match.group(2)).strip("`")
        arguments = labels(parameter_list(code, match.end() - 1))
        names.append(f"{base}({''.join(label + ':' for label in arguments)})")
        if "completionHandler" in arguments:
            rest = [label for label in arguments if label != "completionHandler"]
            names.append(f"{base}({''.join(label + ':' for label in rest)})")
    names += re.findall(r"\bvar\s+(\w+)\s*:", code)
    declared_class = re.match(r"\s*class\s+(\w+)\s*:\s*(.*)", code)
    if declared_class:
        names.append(declared_class.group(1))
        names += [conformance_check(declared_class.group(1), conformance.strip())
                  for conformance in declared_class.group(2).split(",")[1:]]
    return names


def conformance_check(type_name, protocol):
    """How the conformance target checks that a type conforms: `isNSCopying(CSPerson.self)`
    (a generic function constrained to the protocol, so the compiler checks it)."""
    return f"is{protocol}({type_name}.self)"


def covered(name):
    """True when a use of the name is in the conformance target."""
    match = re.match(r"(\w+)\((.*)\)$", name)
    if match and match.group(2):
        return name in uses
    base = match.group(1) if match else name
    return re.search(r"\b" + re.escape(base) + r"\b", uses) is not None


def listed(name):
    """True when API-GAPS.md names the member (by its base name, or a conformance by
    its protocol) in a code span."""
    conformance = re.match(r"is(\w+)\((\w+)\.self\)$", name)
    base = conformance.group(1) if conformance else re.split(r"[(.]", name)[0]
    return re.search(r"`[^`]*\b" + re.escape(base) + r"\b[^`]*`", gaps) is not None


missing, checked = [], 0


def check(path, every_section=False):
    """Checks each table row of one spec file (§1–§12 and the CS property tables,
    or every table with every_section)."""
    global checked
    section = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"^#{2,4} (.*)", line)
        if heading:
            section = heading.group(1)
            continue
        number = re.match(r"(\d+)", section)
        in_scope = every_section or number and 1 <= int(number.group(1)) <= 12 or section.startswith("CS")
        if not in_scope or not line.startswith("| ") or line.startswith("| name") or line.startswith("| property") or line.startswith("|---"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        first, second = cells[0], cells[1] if len(cells) > 1 else ""
        first_spans = re.findall(r"`([^`]+)`", first)
        second_spans = re.findall(r"`([^`]+)`", second)
        if section.startswith("CS"):
            # §6a property tables: "`ObjC` / `swift`", or the Swift name alone.
            pair = re.match(r"`(\w+)` / `(\w+)`", first)
            names = [pair.group(2) if pair else first_spans[0]]
        else:
            names = [name for span in second_spans for name in declared_names(span)]
            if not names and every_section:
                # A list of identifiers ("`thoroughfare`, `locality`, …").
                names = [span for span in second_spans if re.fullmatch(r"\w+", span)]
            if not names:
                members = [span for span in second_spans if re.fullmatch(r"\.\w+", span)]
                names = [member[1:] for member in members]
            if not names:
                spans = first_spans or (second_spans if second != "—" else [])
                names = [identifier for span in spans for identifier in re.findall(r"[A-Za-z_]\w*", re.sub(r"\(.*?\)", "", span))]
                names = [name for name in names if name not in ("init", "func", "var", "optional")]
                if not spans:
                    # "NSSecureCoding / NSCopying": the section's class conforms to each.
                    owner = re.search(r"\b(CS\w+|NS\w+)", section)
                    names = [conformance_check(owner.group(1), protocol) for protocol in re.findall(r"\bNS\w+", first)]
        for name in dict.fromkeys(names):
            checked += 1
            if covered(name):
                continue
            if listed(name):
                if verbose:
                    print(f"listed in API-GAPS.md: {section.split(' —')[0]}: {name}")
                continue
            missing.append(f"{path.name}: {section.split(' —')[0]}: {name}")


check(spec_path)
check(root / "Spec/apple-api-mapkit.md", every_section=True)

for entry in missing:
    print(entry)
print(f"{checked} Swift names checked; {len(missing)} neither used in Tests/AppleAPIConformanceTests nor listed in API-GAPS.md",
      file=sys.stderr)
sys.exit(1 if missing else 0)
