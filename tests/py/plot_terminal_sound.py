"""tests/py/plot_terminal_sound.py FILE COLUMNS LINES utf8|ascii [REFERENCE]: whether
the terminal picture in FILE is sound (tests/t-plot-terminal.sh): valid
UTF-8 (ascii: every byte ASCII), every 256-colour index under 256,
COLUMNS by LINES, the legend's lines after the plot each a key and a label
whole or cut with an ellipsis (a start of one of REFERENCE's labels), the
plot's left and bottom border unbroken.  Prints "sound" or what is wrong."""

import re, sys, unicodedata
path, columns, lines_wanted, mode = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
raw = open(path, "rb").read().replace(b"\r", b"")
problems = []
if mode == "ascii" and any(b >= 0x80 for b in raw):
    problems.append("a byte outside ASCII")
try:
    text = raw.decode("utf-8")
except UnicodeDecodeError as error:
    problems.append("invalid UTF-8: %s" % error)
    text = raw.decode("utf-8", "replace")
for index in re.findall(r"\x1b\[38;5;([0-9]+)m", text):
    if int(index) > 255:
        problems.append("colour %s" % index)
def width(line):
    return sum(0 if unicodedata.combining(c) or c in "\u200b\u200d" else
               2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)
lines = [re.sub(r"\x1b\[[0-9;]*m", "", l) for l in text.split("\n")]
if lines[-1] == "":
    lines.pop()
if len(lines) != lines_wanted or max(width(l) for l in lines) > columns:
    problems.append("%d lines, %d wide" % (len(lines), max(width(l) for l in lines)))
key = re.compile(r"^  ([^ ])\1{3} (.+)$")
first_key = len(lines)
while first_key > 0 and key.match(lines[first_key - 1]):
    first_key -= 1
legend = [key.match(l).group(2) for l in lines[first_key:]]
if len(legend) < 3:
    problems.append("%d legend lines at the end" % len(legend))
reference = []
if len(sys.argv) > 5:
    reference = [key.match(l).group(2) for l in
                 re.sub(r"\x1b\[[0-9;]*m", "", open(sys.argv[5], encoding="utf-8").read()).split("\n")
                 if key.match(l)]
for label in legend:
    cut = "\u2026" if mode == "utf8" else "..."
    head = re.sub(r"[0-9]+", "#", label.split(cut)[0])
    if reference and not any(re.sub(r"[0-9]+", "#", r).startswith(head) for r in reference):
        problems.append("a label neither whole nor cut: %r" % label)
# The border: the bottom line "+---...---+", the left one above it, up to
# the top tic, "|" or "+" all the way.
bottom = max((i for i, l in enumerate(lines[:first_key]) if re.search(r"\+-{3,}\+", l)), default=None)
if bottom is None:
    problems.append("no bottom border")
else:
    column = re.search(r"\+-{3,}\+", lines[bottom]).start()
    top = bottom
    while top > 0 and len(lines[top - 1]) > column and lines[top - 1][column] in "|+":
        top -= 1
    if bottom - top < 2 or lines[top][column] != "+":
        problems.append("the left border broken above line %d" % top)
    if not re.match(r"\+-+\+", lines[bottom][column:]):
        problems.append("the bottom border broken")
print("sound" if not problems else "; ".join(problems[:4]))
