"""tests/py/options_has_option.py HELP OPTION [DEFAULT]: exit status 0 when the
text of strata record --help in the file HELP lists OPTION and, with
DEFAULT, its text shows it as (=D), [D], (D) or "default D"
(tests/t-options.sh)."""

import re, sys
lines = open(sys.argv[1]).read().split("\n")
option = sys.argv[2]
default = sys.argv[3] if len(sys.argv) > 3 else None
starts = [i for i, l in enumerate(lines) if re.search(r"(^|[\s,])" + re.escape(option) + r"\b", l)]
if not starts:
    sys.exit(1)
i = starts[0]
block = [lines[i]]
for l in lines[i + 1:]:
    if l.lstrip().startswith("-") or not l.strip():
        break
    block.append(l)
text = " ".join(block)
if default is None:
    sys.exit(0)
d = re.escape(default)
sys.exit(0 if re.search(r"\(=" + d + r"\)|\[" + d + r"\]|\(" + d + r"\)|default(:| is)? +" + d + r"\b", text) else 1)
