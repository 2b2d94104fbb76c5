"""tests/py/clock_held.py PROFILE: the part of the run (percent) held
by plateaus: two consecutive regular snapshots with the same heap, the
second listing no site (tests/t-clock.sh, bursty)."""

import sys
snaps, cur = [], None
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    if f[0] == "T":
        cur = [f[1], int(f[2]), int(f[3]), 0]
    elif f[0] == "s":
        cur[3] += 1
    elif f[0] == "E":
        snaps.append(cur)
    elif f[0] == "X":
        end = int(f[1])
regular = [s for s in snaps if s[0] != "peak"]
held = sum(b[1] - a[1] for a, b in zip(regular, regular[1:]) if b[3] == 0 and a[2] == b[2])
print(int(100 * held / end))
