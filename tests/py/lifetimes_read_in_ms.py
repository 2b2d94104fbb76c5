"""tests/py/lifetimes_read_in_ms.py DATA OUT: DATA, a profile in instructions,
written to OUT as a profile in ms whose epochs are counted in
instructions (opt epoch_unit i), 1,024 a millisecond: each L record
gives its start in instructions and the time of its first event in ms
(tests/t-lifetimes-read.sh)."""

import sys
out = []
for line in open(sys.argv[1]).read().splitlines():
    f = line.split("\t")
    if f[0] == "time_unit":
        f[1] = "ms"
    elif f[0] == "L":
        f = [f[0], f[1], str(int(f[2]) * 1024), str(int(f[3]) * 1024), f[2]]
    out.append("\t".join(f))
    if line == "opt\tfree_stacks\tyes":
        out.append("opt\tepoch_unit\ti")
open(sys.argv[2], "w").write("\n".join(out) + "\n")
