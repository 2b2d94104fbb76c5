"""tests/py/plot_terminal_fits.py FILE COLUMNS LINES: prints "fits" when the
terminal picture in FILE has LINES lines, none wider than COLUMNS columns
once the colour escapes are out (wide characters take two, combining
marks and zero-width spaces none), else its size (tests/t-plot-terminal.sh)."""

import re, sys, unicodedata
def columns(line):
    return sum(0 if unicodedata.combining(c) or c in "\u200b\u200d" else
               2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)
text = open(sys.argv[1], encoding="utf-8").read().replace("\r", "")
lines = re.sub(r"\x1b\[[0-9;]*m", "", text).split("\n")
if lines[-1] == "": lines.pop()
widest = max(columns(l) for l in lines)
ok = len(lines) == int(sys.argv[3]) and widest <= int(sys.argv[2])
print("fits" if ok else "%d lines, %d wide" % (len(lines), widest))
