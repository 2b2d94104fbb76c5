"""tests/py/clock_levels.py DATA END: in the bands block of a kept data file of
strata plot (tests/t-clock.sh, idle_free), how long the bottom band
(hold_buffer) is level at 1 MiB, level at 0 after 30% of the run and
sloping, as parts of the run's END: prints "UP DOWN SLOPE" (percent,
percent, thousandths of a percent)."""

import sys
blocks = open(sys.argv[1]).read().split("\n\n\n")
rows = []
for block in blocks:
    lines = [l for l in block.split("\n") if l and not l.startswith("#")]
    if lines and all(len(l.split("\t")) >= 3 for l in lines):
        rows = [[float(x) for x in l.split("\t")] for l in lines]
        break
end = float(sys.argv[2])
MiB = 1 << 20
up = down = slope = 0.0
for a, b in zip(rows, rows[1:]):
    dt = b[0] - a[0]
    ya, yb = a[2], b[2]            # the bottom band: hold_buffer
    if ya == yb == MiB:
        up += dt
    elif ya == yb == 0 and a[0] > 0.3 * end:
        down += dt
    elif ya != yb:
        slope += dt
print(int(100 * up / end), int(100 * down / end), int(100000 * slope / end))
