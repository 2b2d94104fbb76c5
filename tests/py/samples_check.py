"""tests/py/samples_check.py MASSIF DEFAULT STOPPED: the samples of the output
in the comments of massif/*.[ch] (tests/t-samples.sh) against real profiles:
DEFAULT recorded with the default options, STOPPED (or "") one that ended
with a Q record.  Prints each sample's count of record lines, then each
problem; exit status 1 when there is one."""

import glob, os, re, sys

massif, default, stopped = sys.argv[1], sys.argv[2], sys.argv[3]
HEADER = ("strata-profile", "cmd", "pid", "ppid", "time_unit", "opt")
TYPES = HEADER + ("F", "S", "P", "M", "K", "T", "s", "c", "L", "b", "d", "a", "E", "X", "Q")
LOOKS = re.compile(r"^ {4,}(%s)( {2,}|$)" % "|".join(re.escape(t) for t in TYPES))
NUM = r"(0|[1-9][0-9]*)"
HEX = r"0x[0-9a-f]+"
# What each field must look like, by record type (S: any number of ids).
SHAPES = {
    "strata-profile": [r"[123]"], "cmd": [r".*"], "pid": [NUM], "ppid": [NUM],
    "time_unit": [r"i|ms|B"], "opt": [r"[a-z_]+", r".*"],
    "F": [NUM, HEX, r"[01]", r".*", r".*", NUM, r".*", "(%s)?" % HEX],
    "M": [NUM, r".+"], "K": [NUM], "T": [r"regular|user|peak|final", NUM, NUM, NUM, NUM],
    "s": [NUM] * 5, "c": [NUM] * 4, "E": [], "X": [NUM], "Q": [NUM, r"[ -~]+"], "S": None,
    "P": None, "L": [NUM] * 3, "b": [NUM] * 4, "d": [NUM] * 5, "a": [NUM] * 4,
}
problems = []

def records(path):
    return [l.rstrip("\n").split("\t") for l in open(path, encoding="utf-8")]

def field_counts(recs):
    counts = {}
    for r in recs:
        counts.setdefault(r[0], set()).add(len(r))
    return counts

def header_of(recs):
    return [r for r in recs if r[0] in HEADER]

def samples():
    """(file, first line, [(line number, fields)]) for each sample."""
    found = []
    for path in sorted(glob.glob(os.path.join(massif, "*.[ch]"))):
        lines = open(path, encoding="utf-8").read().split("\n")
        current = None
        for n, line in enumerate(lines, 1):
            if current is None and "Sample of" in line:
                current = (os.path.basename(path), n, [])
                found.append(current)
            elif current is not None:
                if "*/" in line:
                    current = None
                elif re.match(r" {6,}\S", line) and line.strip() != "...":
                    current[2].append((n, re.split(r" {2,}", line.strip())))
            elif LOOKS.match(line):
                problems.append(f"{os.path.basename(path)}:{n}: a record outside a sample: {line.strip()}")
    return found

real = records(default)
real_counts = field_counts(real)
q_counts = field_counts(records(stopped)).get("Q", {3}) if stopped else {3}
found = samples()
if len(found) < 2:
    problems.append(f"{len(found)} samples found in {massif}, expected the output's and the Q record's")
for name, start, lines in found:
    where = f"{name}:{start}"
    if not lines:
        problems.append(f"{where}: an empty sample")
    types = set()
    for n, f in lines:
        t = f[0]
        types.add(t)
        if t not in SHAPES:
            problems.append(f"{name}:{n}: unknown record type {t!r}")
            continue
        shape = SHAPES[t]
        if t in ("S", "P"):
            ok = len(f) >= 2 and all(re.fullmatch(NUM, x) for x in f[1:])
        else:
            ok = len(f) == len(shape) + 1 and all(
                re.fullmatch(p, x) for p, x in zip(shape, f[1:]))
        if not ok:
            problems.append(f"{name}:{n}: not a well-formed {t} record: {'  '.join(f)}")
        want = q_counts if t == "Q" else real_counts.get(t)
        if want is None:
            problems.append(f"{name}:{n}: {t} records are not in the real profile")
        elif t in ("S", "P"):
            if min(want) < 2:
                problems.append(f"{name}:{n}: the real profile has an S record of {min(want)} field")
        elif want != {len(f)}:
            problems.append(f"{name}:{n}: {t} has {len(f)} fields, the tool writes {sorted(want)}")
    if types & set(HEADER):
        # The main sample: the header of a default profile, every record type.
        head = [f for _, f in lines if f[0] in HEADER]
        keys = lambda h: [tuple(f[:2]) if f[0] == "opt" else (f[0],) for f in h]
        if keys(head) != keys(header_of(real)):
            problems.append(f"{where}: header lines {keys(head)}, the tool writes {keys(header_of(real))}")
        for f, g in zip(head, header_of(real)):
            if f[0] not in ("cmd", "pid", "ppid") and f != g:
                problems.append(f"{where}: header line {'  '.join(f)}, the tool writes {'  '.join(g)}")
        missing = set(real_counts) - types
        if missing:
            problems.append(f"{where}: no {', '.join(sorted(missing))} record, which a profile holds")
        if lines[-1][1][0] != "X":
            problems.append(f"{where}: the sample does not end with X")
    print(f"{where}: {len(lines)} record lines checked")
for p in problems:
    print("problem: " + p)
sys.exit(1 if problems else 0)
