"""tests/py/stacks_order_check.py PROFILE: prints each record of PROFILE out of
time order (docs/format.md): the times of the T, M, K and X records never
decrease, but a peak may be older than the records just before it; it is
never older than the peak before it, and no record after it is older than
it (tests/t-stacks-order.sh)."""

import sys
latest = last_peak = 0
for n, line in enumerate(open(sys.argv[1]), 1):
    f = line.rstrip("\n").split("\t")
    if f[0] == "T":
        kind, t = f[1], int(f[2])
    elif f[0] in ("M", "K", "X"):
        kind, t = f[0], int(f[1])
    else:
        continue
    if kind == "peak":
        if t < last_peak:
            print(f"line {n}: a peak at {t}, older than the peak before it ({last_peak})")
        last_peak = t
    elif t < latest:
        print(f"line {n}: {kind} at {t}, older than a record before it ({latest})")
    latest = max(latest, t)
