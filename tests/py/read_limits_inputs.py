"""tests/py/read_limits_inputs.py WORK: the inputs of tests/t-read-limits.sh,
written in WORK: markers.strata (20,000 cycles), peaks.strata (300,000
snapshots, each followed by a late peak) and graph.strata (100,000
markers)."""

import sys
work = sys.argv[1]
head = ["strata-profile\t2", "cmd\t./many", "pid\t1", "ppid\t0", "time_unit\ti",
        "F\t1\t0x401000\t0\tgrow\tg.c\t1\t/bin/g\t", "F\t2\t0x402000\t0\tcycle\tc.c\t2\t/bin/g\t",
        "S\t1\t1", "S\t2\t2"]

# 20,000 markers with one label over 40,000 snapshots: 20,000 cycles.
lines, t = list(head), 0
for i in range(40000):
    t += 10
    if i % 2 == 0:
        lines.append("M\t%d\tframe" % t)
    lines += ["T\tregular\t%d\t%d\t0\t0" % (t, 100 * (i % 2) + i), "s\t1\t%d\t1\t%d\t%d" % (i, i, i),
              "s\t2\t%d\t1\t0\t%d" % (100 * (i % 2), 100), "E"]
lines.append("X\t%d" % (t + 1))
open(work + "/markers.strata", "w").write("\n".join(lines) + "\n")

# 300,000 snapshots, each followed by a peak at time 0, written late.
lines = list(head)
for i in range(1, 300001):
    lines += ["T\tregular\t%d\t100\t0\t0" % i, "E", "T\tpeak\t0\t100\t0\t0",
              "s\t1\t100\t1\t100\t100", "E"]
lines.append("X\t300001")
open(work + "/peaks.strata", "w").write("\n".join(lines) + "\n")

# 100,000 markers for the graph.
lines, t = list(head), 0
for i in range(100000):
    t += 10
    lines.append("M\t%d\tm%d" % (t, i % 7))
    if i % 100 == 0:
        lines += ["T\tregular\t%d\t%d\t0\t0" % (t, i), "s\t1\t%d\t1\t0\t%d" % (i, i), "E"]
lines.append("X\t%d" % (t + 1))
open(work + "/graph.strata", "w").write("\n".join(lines) + "\n")
