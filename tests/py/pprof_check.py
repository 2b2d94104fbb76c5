"""tests/t-pprof.sh's questions about what `go tool pprof -top -unit=B` printed
and about the pprof files themselves:

  top TOP REPORT.json       the functions' flat and cum bytes against strata
                            report's contexts at the peak (whole stacks:
                            --depth=all --threshold=0 --top=all), named
                            frames only
  folded TOP FILE.folded    the same against collapsed stacks (--at)
  leaked TOP REPORT.json    each finding's headline holds its kept bytes (a
                            report with one finding at least)
  strings FILE.pb.gz        every string of the string table is UTF-8: prints
                            "utf8 True" and the longest string's length
Prints "NAME True" per fact, and what differs when one does not hold."""
import gzip
import json
import re
import sys
from collections import defaultdict


def top(path):
    """function -> (flat, cum) from pprof -top -unit=B (an inlined
    function's " (inline)" taken off)."""
    rows, seen = {}, False
    for line in open(path, encoding="utf-8"):
        if re.match(r"^\s+flat\s+flat%", line):
            seen = True
            continue
        if not seen or not line.strip():
            continue
        fields = line.split(None, 5)
        value = lambda text: int(text.rstrip("B")) if text != "0" else 0
        name = fields[5].rstrip("\n")
        name = name[: -len(" (inline)")] if name.endswith(" (inline)") else name
        rows[name] = (value(fields[0]), value(fields[3]))
    return rows


def sums(stacks):
    """stacks: (innermost-first names, bytes) -> function -> (flat, cum)."""
    flat, cum = defaultdict(int), defaultdict(int)
    for names, size in stacks:
        if size == 0 or not names:
            continue
        names = [n if n and not re.match(r"^(\S+\+)?0x[0-9a-f]+$", n) else "" for n in names]
        if names[0]:
            flat[names[0]] += size
        for name in set(n for n in names if n):
            cum[name] += size
    return {name: (flat[name], cum[name]) for name in cum}


def named(rows):
    # An unnamed frame is its object ([libc.so.6]) or its address in pprof,
    # an empty function in strata.
    return {k: v for k, v in rows.items() if not re.match(r"^(0x[0-9a-f]+|\[.*\])$", k)}


def compare(fact, got, want):
    print(fact, got == want)
    if got != want:
        for name in sorted(set(got) | set(want)):
            if got.get(name) != want.get(name):
                print("   ", repr(name[:80]), "pprof", got.get(name), "strata", want.get(name))


def report_stacks(report):
    return [([f["function"] for f in c["frames"]], c["peak_bytes"]) for c in report["contexts"]]


def folded_stacks(path):
    stacks = []
    for line in open(path, encoding="utf-8"):
        names, size = line.rstrip("\n").rsplit(" ", 1)
        stacks.append((list(reversed(names.split(";"))), int(size)))
    return stacks


def string_table(data):
    """The strings of field 6 of a Profile message, from its wire format."""
    def varint(at):
        shift = value = 0
        while True:
            byte = data[at]
            value |= (byte & 0x7F) << shift
            at += 1
            shift += 7
            if byte < 0x80:
                return value, at

    strings, at = [], 0
    while at < len(data):
        key, at = varint(at)
        wire = key & 7
        if wire == 0:
            _, at = varint(at)
        elif wire == 2:
            size, at = varint(at)
            if key >> 3 == 6:
                strings.append(data[at:at + size])
            at += size
        elif wire in (1, 5):
            at += 8 if wire == 1 else 4
        else:
            raise ValueError("wire type %d" % wire)
    return strings


def main():
    what = sys.argv[1]
    if what == "top":
        report = json.load(open(sys.argv[3]))
        compare("top", named(top(sys.argv[2])), sums(report_stacks(report)))
    elif what == "folded":
        compare("folded", named(top(sys.argv[2])), sums(folded_stacks(sys.argv[3])))
    elif what == "leaked":
        rows = top(sys.argv[2])
        report = json.load(open(sys.argv[3]))
        want = defaultdict(int)
        for leak in report["leaks"]:
            if leak["headline"] and leak["headline"]["function"]:
                want[leak["headline"]["function"]] += leak["kept_bytes"]
        got = {name: rows.get(name, (0, 0))[1] for name in want}
        if not want:
            print("leaked False: the report has no finding")
        else:
            compare("leaked", got, dict(want))
        print("total", sum(flat for flat, _ in rows.values()) == sum(want.values()))
    elif what == "strings":
        strings = string_table(gzip.open(sys.argv[2]).read())
        valid = True
        for s in strings:
            try:
                s.decode("utf-8", errors="strict")
            except UnicodeDecodeError:
                valid = False
        print("utf8", valid)
        print("longest", max(len(s) for s in strings))


main()
