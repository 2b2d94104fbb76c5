"""tests/py/plot_limits_inputs.py WORK: the inputs of tests/t-plot-limits.sh,
written in WORK: cycles.strata (300,000 cycles of one marker), bands.strata
(1,600 sites, each its own band) and leaks.strata (50 sites, each
leaking a little in cycles of its own)."""

import sys
work = sys.argv[1]
head = ["strata-profile\t2", "cmd\t./p", "pid\t1", "ppid\t0", "time_unit\ti"]

# 300,000 cycles of one label; site 1 rises by one byte a cycle.
lines, t = head + ["F\t1\t0x401000\t0\tgrow\tg.c\t1\t/bin/g\t",
                   "F\t2\t0x402000\t0\tcycle\tc.c\t2\t/bin/g\t", "S\t1\t1", "S\t2\t2"], 0
for i in range(600000):
    t += 10
    if i % 2 == 0:
        lines.append("M\t%d\tframe" % t)
    lines += ["T\tregular\t%d\t%d\t0\t0" % (t, 100 * (i % 2) + i), "s\t1\t%d\t1\t%d\t%d" % (i, i, i),
              "s\t2\t%d\t1\t0\t%d" % (100 * (i % 2), 100), "E"]
lines.append("X\t%d" % (t + 1))
open(work + "/cycles.strata", "w").write("\n".join(lines) + "\n")

# A pseudo-random number for site i at snapshot k, without a trend (a
# sawtooth's troughs drift, and its floor with them).
def noise(i, k):
    z = (i * 1000003 + k * 0x9E3779B97F4A7C15) & (2**64 - 1)
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
    return z ^ (z >> 31)

# n sites, each its own band; with cycles, each rising a little, in cycles
# of its own (leaks born alike would be one finding): n leaks.
def bands(n, snapshots, name, leaking):
    lines = list(head)
    lines += ["F\t%d\t0x%x\t0\tf%d\tb.c\t%d\t/bin/b\t" % (i, 0x400000 + i, i, i) for i in range(1, n + 1)]
    lines += ["S\t%d\t%d" % (i, i) for i in range(1, n + 1)]
    t = 0
    kept = [0] * (n + 1)  # the cycles in which each site has leaked, so far
    for k in range(snapshots):
        t += 100
        if leaking and k % 2 == 0:
            lines.append("M\t%d\tcycle" % t)
            for i in range(1, n + 1):
                kept[i] += noise(i, k) % 20 == 0  # 1 cycle in 20, each site its own
        body = []
        for i in range(1, n + 1):
            b = (50 * kept[i] + 1000 * (k % 2) + i) if leaking else 1000 + noise(i, k) % 997
            body.append("s\t%d\t%d\t1\t%d\t%d" % (i, b, b, b))
        total = sum(int(line.split("\t")[2]) for line in body)
        lines += ["T\tregular\t%d\t%d\t0\t0" % (t, total)] + body + ["E"]
    lines.append("X\t%d" % (t + 1))
    open(work + "/" + name, "w").write("\n".join(lines) + "\n")
bands(1600, 200, "bands.strata", False)
bands(50, 600, "leaks.strata", True)
