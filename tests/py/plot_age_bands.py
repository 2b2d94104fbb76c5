"""tests/py/plot_age_bands.py DAT: each band of a data file kept by strata
plot --by=age, bottom first, as the line "B0 B1 ...": its bytes at each
sample, the differences of the stacked tops (tests/t-plot-age.sh)."""

import sys
rows, on = [], False
for line in open(sys.argv[1]):
    if line.startswith("# the bands"):
        on = True
        continue
    if on:
        if not line.strip():
            break
        rows.append([float(x) for x in line.split("\t")[1:]])
for b in range(len(rows[0]) - 1):
    print(" ".join(str(int(r[b + 1] - r[b])) for r in rows))
