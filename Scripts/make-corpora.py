#!/usr/bin/env python3
"""Builds the corpora the tests and benchmarks read, from Debian bookworm's own
archive metadata and manual pages, into .build/corpora (or --out DIR):

- debian-packages.jsonl.gz: one JSON object per binary package of bookworm,
  bookworm-updates and bookworm-security (main, amd64 and all), the highest
  version when a name is in several: id, title (the name), summary, description
  (the long text: paragraphs separated by a blank line, wrapping removed,
  indented lines kept as their own line), section, keywords (the debtags, or
  the section split on "/"), version, maintainer, installedSize (KiB),
  homepage (or null).
- cjk-manpages.jsonl.gz: Japanese, Chinese (Simplified and Traditional) and
  Korean text: the NAME and DESCRIPTION of manpages-ja and manpages-zh (ids
  `man-ja:man1/ls.1`, `man-zh_CN:…`, `man-zh_TW:…`), and Debian's translated
  package descriptions (`ddtp-ja:<package>`, `ddtp-ko:…`, `ddtp-zh_CN:…`,
  `ddtp-zh_TW:…`) where they translate the current English one: id, title,
  summary, description, language, source, name.
- queries.tsv: 300 seeded queries drawn from debian-packages, `kind<TAB>query`:
  80 word, 80 prefix, 60 multi, 50 substring, 30 attribute.

The package lists come from a private `apt-get update` (its own sources list
and lists directory in a temporary directory, English and the four CJK
languages' Translation files), so the system's apt state is left alone; the
manual pages are read from the installed manpages-ja and manpages-zh, which the
script installs through apt-get when they are missing. Lines are sorted by id
and the gzip files written with mtime 0, so the same archive state gives the
same bytes. When the three files are already in the output directory nothing is
done (--force rebuilds).

Usage: python3 Scripts/make-corpora.py [--out DIR] [--force]
"""
import gzip
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILES = ("debian-packages.jsonl.gz", "cjk-manpages.jsonl.gz", "queries.tsv")
SOURCES = """\
deb http://deb.debian.org/debian bookworm main
deb http://deb.debian.org/debian bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
"""
LANGUAGES = ("en", "ja", "ko", "zh_CN", "zh_TW")
MAN_PACKAGES = {"manpages-ja": ("ja",), "manpages-zh": ("zh_CN", "zh_TW")}
QUERY_SEED = 21
DESCRIPTION_LIMIT = 8_000


def log(message):
    print(f"make-corpora: {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- Debian versions

def _char_order(c):
    """dpkg's ordering of one non-digit character: '~' before the end, letters before the rest."""
    if c == "":
        return 0
    if c == "~":
        return -1
    if c.isalpha():
        return ord(c)
    return ord(c) + 256


def _compare_fragment(a, b):
    """Compares an upstream version or a revision: alternately non-digit runs
    (character by character) and digit runs (as numbers)."""
    i = j = 0
    while i < len(a) or j < len(b):
        while (i < len(a) and not a[i].isdigit()) or (j < len(b) and not b[j].isdigit()):
            x = _char_order(a[i] if i < len(a) and not a[i].isdigit() else "")
            y = _char_order(b[j] if j < len(b) and not b[j].isdigit() else "")
            if x != y:
                return -1 if x < y else 1
            i += 1
            j += 1
        start_a, start_b = i, j
        while i < len(a) and a[i].isdigit():
            i += 1
        while j < len(b) and b[j].isdigit():
            j += 1
        x, y = int(a[start_a:i] or "0"), int(b[start_b:j] or "0")
        if x != y:
            return -1 if x < y else 1
    return 0


def _split_version(version):
    epoch, _, rest = version.rpartition(":") if ":" in version else ("0", "", version)
    upstream, dash, revision = rest.rpartition("-")
    if not dash:
        upstream, revision = rest, ""
    return int(epoch or "0"), upstream, revision


def compare_versions(a, b):
    """Debian's version order: epoch, then upstream version, then revision."""
    ea, ua, ra = _split_version(a)
    eb, ub, rb = _split_version(b)
    if ea != eb:
        return -1 if ea < eb else 1
    return _compare_fragment(ua, ub) or _compare_fragment(ra, rb)


# ---------------------------------------------------------------- deb822 files and text

def stanzas(path):
    """The paragraphs of a Packages or Translation file, as {field: value}; a
    multi-line value keeps its continuation lines (each with its leading space)."""
    with open(path, encoding="utf-8", errors="replace") as file:
        fields, name = {}, None
        for line in file:
            line = line.rstrip("\n")
            if not line:
                if fields:
                    yield fields
                fields, name = {}, None
            elif line[0] in " \t" and name:
                fields[name] += "\n" + line
            else:
                name, _, value = line.partition(":")
                fields[name] = value.strip()
        if fields:
            yield fields


def is_cjk(c):
    """Han, kana and CJK punctuation: wrapped lines of these are joined without a space (Hangul is spaced)."""
    o = ord(c)
    return (0x3000 <= o <= 0x30FF or 0x3400 <= o <= 0x4DBF or 0x4E00 <= o <= 0x9FFF or 0x31F0 <= o <= 0x31FF
            or 0xF900 <= o <= 0xFAFF or 0xFF00 <= o <= 0xFF9F or 0x20000 <= o <= 0x2FFFF)


def join_wrapped(lines):
    text = ""
    for line in lines:
        if not line:
            continue
        if text and not (is_cjk(text[-1]) or is_cjk(line[0])):
            text += " "
        text += line
    return text


def debian_description(value):
    """A Description field's (short line, long text)."""
    first, *rest = value.split("\n")
    paragraphs, wrapped, verbatim = [], [], []

    def flush_wrapped():
        if wrapped:
            verbatim.append(join_wrapped(wrapped))
            wrapped.clear()

    def end_paragraph():
        flush_wrapped()
        if verbatim:
            paragraphs.append("\n".join(verbatim))
            verbatim.clear()

    for raw in rest:
        body = raw[1:] if raw[:1] in (" ", "\t") else raw
        if body.strip() == ".":
            end_paragraph()
        elif body[:1] in (" ", "\t"):
            flush_wrapped()
            verbatim.append(body.strip())
        elif body.strip():
            wrapped.append(body.strip())
    end_paragraph()
    return first.strip(), "\n\n".join(paragraphs)


# ---------------------------------------------------------------- apt

def run(command, **options):
    log(" ".join(command))
    return subprocess.run(command, check=True, **options)


def private_lists(work):
    """A private `apt-get update` of bookworm with the Translation files of LANGUAGES; the lists directory."""
    lists, cache = work / "lists", work / "cache"
    for directory in (lists / "partial", cache / "archives" / "partial"):
        directory.mkdir(parents=True)
    for directory in (work, lists, cache):
        directory.chmod(0o755)   # apt's _apt user downloads into partial/
    (work / "sources.list").write_text(SOURCES)
    run(["apt-get", "update", "-q",
         "-o", f"Dir::State::Lists={lists}", "-o", f"Dir::Cache={cache}",
         "-o", f"Dir::Etc::SourceList={work / 'sources.list'}", "-o", "Dir::Etc::SourceParts=/nonexistent",
         "-o", f"Acquire::Languages={','.join(LANGUAGES)}", "-o", "Acquire::GzipIndexes=false",
         "-o", "APT::Get::List-Cleanup=false"], stdout=subprocess.DEVNULL)
    return lists


def list_files(lists, suffix):
    return sorted(path for path in lists.iterdir() if path.name.endswith(suffix))


def ensure_installed(packages):
    missing = [package for package in packages
               if "install ok installed" not in subprocess.run(["dpkg-query", "-W", "-f=${Status}", package],
                                                               capture_output=True, text=True).stdout]
    if not missing:
        return
    prefix = [] if os.geteuid() == 0 else ["sudo"]
    environment = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    install = prefix + ["apt-get", "install", "-y", "-q", *missing]
    log(" ".join(install))
    if subprocess.run(install, env=environment, stdout=subprocess.DEVNULL).returncode != 0:
        run(prefix + ["apt-get", "update", "-q"], stdout=subprocess.DEVNULL)
        run(install, env=environment, stdout=subprocess.DEVNULL)


# ---------------------------------------------------------------- debian-packages

def debian_packages(lists):
    """{name: (version, item, description md5)} with the highest version of each name."""
    newest = {}
    for path in list_files(lists, "_Packages"):
        for fields in stanzas(path):
            name, version = fields.get("Package"), fields.get("Version", "")
            if not name or (name in newest and compare_versions(version, newest[name][0]) <= 0):
                continue
            newest[name] = (version, fields)
    english = translations(lists, "en")
    out = {}
    for name, (version, fields) in newest.items():
        packaged = fields.get("Description", "")
        md5 = fields.get("Description-md5") or hashlib.md5((packaged + "\n").encode()).hexdigest()
        summary, description = debian_description(english.get((name, md5), packaged))
        section = fields.get("Section", "")
        tags = [tag.strip() for tag in fields.get("Tag", "").replace("\n", " ").split(",") if tag.strip()]
        size = fields.get("Installed-Size", "")
        out[name] = ({
            "id": name, "title": name, "summary": summary, "description": description, "section": section,
            "keywords": tags or [part for part in section.split("/") if part],
            "version": version, "maintainer": fields.get("Maintainer", ""),
            "installedSize": int(size) if size.isdigit() else None, "homepage": fields.get("Homepage") or None,
        }, md5)
    return out


def translations(lists, language):
    """{(package, description md5): the translated Description field} of one language."""
    out = {}
    code = language.replace("_", "%5f")
    for path in list_files(lists, f"_i18n_Translation-{code}"):
        for fields in stanzas(path):
            text = fields.get(f"Description-{language}")
            if fields.get("Package") and fields.get("Description-md5") and text:
                out.setdefault((fields["Package"], fields["Description-md5"]), text)
    return out


# ---------------------------------------------------------------- manual pages

NAME_HEADING = re.compile(r"NAME|名前|名称|名稱", re.I)
DESCRIPTION_HEADING = re.compile(r"DESCRIPTION|説明|解説|描述|說明", re.I)
SPECIAL = {"em": "—", "en": "–", "hy": "-", "bu": "•", "co": "©", "rg": "®", "lq": "“", "rq": "”", "oq": "‘",
           "cq": "’", "dq": '"', "aq": "'", "ha": "^", "ti": "~", "mu": "×", "de": "°", "bv": "|", "ga": "`",
           "aa": "´", "sl": "/", "rs": "\\", "pl": "+", "mi": "-", "eq": "=", "<=": "≤", ">=": "≥", "->": "→"}
ESCAPE = re.compile(r"""\\(?:
      f(?:\[[^\]]*\]|\(..|.)          # font
    | \*(?:\[[^\]]*\]|\(..|.)         # string
    | n[+-]?(?:\[[^\]]*\]|\(..|.)     # number register
    | s[+-]?(?:\d\d?|\[[^\]]*\]|\(..|'[^']*')   # size
    | [hvwoXZlLbxDNSR]'[^']*'         # motions, widths, drawings
    | \((?P<two>..)                   # special character
    | \[(?P<long>[^\]]*)\]
    | (?P<one>.)
    )""", re.X)


def unescape(text):
    """Roff text as plain text: escapes resolved or dropped, a trailing \\" comment removed."""
    def replace(match):
        if match.group("two") is not None or match.group("long") is not None:
            return SPECIAL.get(match.group("two") or match.group("long"), "")
        one = match.group("one")
        if one is None:
            return ""
        return {"-": "-", "e": "\\", "\\": "\\", " ": " ", "~": " ", "0": " ", "t": " ", "'": "'", "`": "`",
                ".": "."}.get(one, "" if one in "&|^,/:%cdupkzrajy{}!\"" else one)
    return ESCAPE.sub(replace, text.split('\\"', 1)[0])


def roff_arguments(text):
    """A request's arguments: words, or "quoted text" (closing quote optional, "" for a quote)."""
    return [match.group(1).replace('""', '"') if match.group(1) is not None else match.group(2)
            for match in re.finditer(r'"((?:[^"]|"")*)"?|(\S+)', text)]


def request_text(name, arguments):
    """The text of a font or mdoc request line, or None for layout requests."""
    words = roff_arguments(arguments)
    if name in ("B", "I", "SM", "SB"):
        return " ".join(words)
    if re.fullmatch(r"[BIR]{2}", name):
        return "".join(words)
    if name in ("Nm", "Nd", "Fl", "Ar", "Pa", "Xr", "Cm", "Em", "Sy", "Li", "Dv", "Ev", "Va", "Ql", "Dq", "Sq", "Op",
                "Ic", "Tn", "Ux", "Fn", "Fa", "Ft", "Xo", "Xc", "Oo", "Oc", "No", "Ns"):
        kept = [word for word in words if not re.fullmatch(r"[A-Z][a-z][a-z]?", word)]
        return " ".join(kept) if name != "Fl" else " ".join("-" + word for word in kept)
    return None


def man_sections(text):
    """[(heading, [paragraph text])] of a man page's roff source (man or mdoc)."""
    sections, paragraphs, lines, fill = [], [], [], True
    in_macro = tag_pending = False

    def end_paragraph():
        if lines:
            paragraphs.append(join_wrapped(lines) if fill else "\n".join(lines))
            lines.clear()

    for raw in text.split("\n"):
        if in_macro:
            in_macro = raw.strip() != ".."
            continue
        if raw.startswith((".\\\"", "'\\\"", '.\\"')) or raw.strip() in (".", "'"):
            continue
        if raw[:1] in (".", "'"):
            name, _, arguments = raw[1:].strip().partition(" ")
            if name in ("de", "de1", "am", "ig"):
                in_macro = True
                continue
            if name in ("SH", "Sh"):
                end_paragraph()
                heading = unescape(" ".join(roff_arguments(arguments)))
                sections.append((heading, paragraphs := []))
                continue
            if name in ("nf", "Bd", "EX"):
                end_paragraph()
                fill = False
                continue
            if name in ("fi", "Ed", "EE"):
                end_paragraph()
                fill = True
                continue
            words = request_text(name, arguments)
            if words is not None:
                text_line = unescape(words).strip()
                if text_line:
                    lines.append(text_line)
                    if tag_pending:   # a .TP tag is a line of its own
                        end_paragraph()
                        tag_pending = False
                continue
            if name in ("IP", "TP", "PP", "LP", "P", "HP", "SS", "Ss", "sp", "Pp", "It", "Bl", "El", "RS", "RE"):
                end_paragraph()
                tag_pending = name == "TP"
                if name in ("IP", "SS", "Ss", "It") and arguments.strip():
                    # .IP's tag is its first argument (the second is an indent); .It is mdoc's list item.
                    tag = (roff_arguments(arguments) or [""])[0] if name == "IP" else \
                        request_text("Nm" if name == "It" else "B", arguments)
                    if tag and unescape(tag).strip():
                        lines.append(unescape(tag).strip())
                        end_paragraph()
            elif name == "br" and not fill:
                end_paragraph()
            continue
        line = unescape(raw).strip()
        if line:
            lines.append(line)
            if tag_pending:
                end_paragraph()
                tag_pending = False
        elif fill:
            end_paragraph()
    end_paragraph()
    return sections


def man_entry(path, language, package, relative):
    data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    text = data.decode("utf-8", errors="replace").replace("\r", "")
    if re.match(r"\s*\.so\s", text):
        return None   # a link to another page
    sections = man_sections(text)
    name_text = next((" ".join(paragraphs) for heading, paragraphs in sections if NAME_HEADING.search(heading)), "")
    description = next(("\n\n".join(paragraphs) for heading, paragraphs in sections
                        if DESCRIPTION_HEADING.search(heading) and not NAME_HEADING.search(heading)), "")
    title = re.split(r"\s+[-—–]+\s+|\s*[-—–]+\s+|\s+[-—–]+\s*", name_text, maxsplit=1)[-1].strip()
    if not title or not description.strip():
        return None
    if len(description) > DESCRIPTION_LIMIT:
        description = description[:DESCRIPTION_LIMIT]
    page = relative.removesuffix(".gz")
    return {"id": f"man-{language}:{page}", "title": title, "summary": title, "description": description.strip(),
            "language": language, "source": package, "name": re.sub(r"\.[^.]+$", "", Path(page).name)}


def man_pages():
    ensure_installed(sorted(MAN_PACKAGES))
    entries = []
    for package, languages in MAN_PACKAGES.items():
        files = subprocess.run(["dpkg-query", "-L", package], capture_output=True, text=True, check=True).stdout.split("\n")
        for language in languages:
            directory = f"/usr/share/man/{language}/"
            pages = sorted(Path(file) for file in files if file.startswith(directory) and re.search(r"/man\w+/[^/]+$", file))
            pages = [page for page in pages if page.is_file() and not page.is_symlink()]
            if not pages:
                raise SystemExit(f"make-corpora: {package} is installed but {directory} holds none of its pages "
                                 "(does dpkg exclude /usr/share/man?)")
            found = [man_entry(page, language, package, str(page)[len(directory):]) for page in pages]
            entries += [entry for entry in found if entry]
            log(f"{package} {language}: {sum(1 for entry in found if entry)} of {len(pages)} pages with a NAME and DESCRIPTION")
    return entries


def ddtp_entries(lists, packages):
    """The translated descriptions (ja, ko, zh_CN, zh_TW) that translate a package's current English one."""
    entries = []
    for language in LANGUAGES[1:]:
        translated = translations(lists, language)
        count = 0
        for name, (_, md5) in packages.items():
            if (name, md5) not in translated:
                continue
            summary, description = debian_description(translated[(name, md5)])
            entries.append({"id": f"ddtp-{language}:{name}", "title": summary, "summary": summary,
                            "description": description, "language": language, "source": "ddtp", "name": name})
            count += 1
        log(f"ddtp {language}: {count} packages")
    return entries


# ---------------------------------------------------------------- queries

def words_of(text):
    return [token for token in re.findall(r"[^\W_]+", text.lower()) if re.fullmatch(r"[a-z]+", token)]


def make_queries(items, seed=QUERY_SEED):
    rng = random.Random(seed)
    df = Counter()
    for item in items:
        df.update(set(words_of(" ".join([item["title"], item["summary"], item["description"], " ".join(item["keywords"])]))))
    queries = []
    # word: 16 from each document-frequency band
    for low, high in ((5000, None), (1000, 4999), (100, 999), (10, 99), (1, 9)):
        band = sorted(word for word, count in df.items() if count >= low and (high is None or count <= high) and len(word) >= 3)
        queries += [("word", word) for word in rng.sample(band, 16)]
    # prefix: the first 1–5 letters of words of five letters or more, drawn in proportion to df
    long_words = sorted(word for word in df if len(word) >= 5)
    weights = [df[word] for word in long_words]
    for length in range(1, 6):
        queries += [("prefix", word[:length]) for word in rng.choices(long_words, weights=weights, k=16)]
    # multi: 2 or 3 distinct words of three letters or more, in order, from one package's summary
    summaries = [words for words in (list(dict.fromkeys(w for w in words_of(item["summary"]) if len(w) >= 3)) for item in items)]
    for count in (2, 3):
        candidates = [words for words in summaries if len(words) >= count]
        for words in rng.sample(candidates, 30):
            picked = sorted(rng.sample(range(len(words)), count))
            queries.append(("multi", " ".join(words[index] for index in picked)))
    # substring: an infix of 3–6 letters (not at either end) of a word of a title or summary
    infix_words = sorted({word for item in items for word in words_of(item["title"] + " " + item["summary"]) if len(word) >= 5})
    for word in rng.sample(infix_words, 50):
        length = rng.randint(3, min(6, len(word) - 2))
        start = rng.randint(1, len(word) - length - 1)
        queries.append(("substring", f"*{word[start:start + length]}*"))
    # attribute: sections (8 big, 8 mid-sized, 6 small) and installedSize thresholds at percentiles
    sections = [section for section, _ in sorted(Counter(item["section"] for item in items if item["section"]).items(),
                                                 key=lambda pair: (-pair[1], pair[0]))]
    third = len(sections) // 3
    for group, count in ((sections[:third], 8), (sections[third:2 * third], 8), (sections[2 * third:], 6)):
        queries += [("attribute", f"section == {section}") for section in rng.sample(group, min(count, len(group)))]
    sizes = sorted(item["installedSize"] for item in items if item["installedSize"] is not None)
    for percentile in (50, 75, 90, 95, 99, 99.5, 99.9, 99.99):
        queries.append(("attribute", f"installedSize > {sizes[min(len(sizes) - 1, int(len(sizes) * percentile / 100))]}"))
    return queries


# ---------------------------------------------------------------- output

def write_jsonl_gz(path, objects):
    temporary = path.with_name(path.name + ".partial")
    with open(temporary, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as out:
        for obj in sorted(objects, key=lambda obj: obj["id"]):
            out.write((json.dumps(obj, ensure_ascii=False) + "\n").encode("utf-8"))
    temporary.replace(path)


def main():
    out = Path(sys.argv[sys.argv.index("--out") + 1]) if "--out" in sys.argv else ROOT / ".build" / "corpora"
    if all((out / name).is_file() for name in FILES) and "--force" not in sys.argv:
        log(f"{out} holds {', '.join(FILES)} (--force rebuilds)")
        return 0
    started = time.monotonic()
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="openspotlight-corpora-"))
    try:
        lists = private_lists(work)
        packages = debian_packages(lists)
        items = [item for item, _ in packages.values()]
        log(f"debian-packages: {len(items)} packages")
        write_jsonl_gz(out / FILES[0], items)
        cjk = man_pages() + ddtp_entries(lists, packages)
        write_jsonl_gz(out / FILES[1], cjk)
        log(f"cjk-manpages: {len(cjk)} entries")
        queries = make_queries(sorted(items, key=lambda item: item["id"]))
        temporary = out / (FILES[2] + ".partial")
        temporary.write_text("".join(f"{kind}\t{query}\n" for kind, query in queries), encoding="utf-8")
        temporary.replace(out / FILES[2])
        log(f"queries: {len(queries)}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    log(f"wrote {out} in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
