"""tests/py/native_parity.py PROFILE: the heap at the profile's last peak
snapshot, then each site it holds bytes of, one a line, sorted: "bytes
blocks: object+offset < ..." with each code address as its object's base
name and its offset there (tests/t-native.sh: the same program recorded
natively and under Valgrind holds the same bytes at the same code; names
may differ, where Valgrind reads the symbol table and the native recorder
DWARF).  The inlined frames of an address count once."""

import os
import sys

frames, sites, peak = {}, {}, None
snap = None
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    if f[0] == "F":
        frames[f[1]] = "%s+%s" % (os.path.basename(f[7]), f[8])
    elif f[0] == "S":
        where = []
        for i in f[2:]:
            if not where or where[-1] != frames[i]:
                where.append(frames[i])
        sites[f[1]] = " < ".join(where)
    elif f[0] == "T":
        snap = (f[1], int(f[3]), []) if f[1] == "peak" else None
    elif f[0] == "s" and snap is not None and f[2] != "0":
        snap[2].append("%s %s: %s" % (f[2], f[3], sites[f[1]]))
    elif f[0] == "E" and snap is not None:
        peak = snap
if peak is None:
    print("no peak snapshot")
    sys.exit(0)
print("heap %d" % peak[1])
for line in sorted(peak[2]):
    print(line)
