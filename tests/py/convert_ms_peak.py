"""tests/py/convert_ms_peak.py MS_PRINT-OUTPUT REPORT: ms_print's peak row and
the first entry of its tree against strata report --json
(tests/t-convert.sh): prints "total", "bytes" and "frame" lines with
True where they agree."""

import json, re, sys
text = open(sys.argv[1]).read()
report = json.load(open(sys.argv[2]))
peak = int(re.search(r"(\d+) \(peak\)", text).group(1))
rows = re.findall(r"^\s*(\d+)\s+([\d,]+)\s+([\d,]+)\s+([\d,]+)", text, re.M)
row = [r for r in rows if int(r[0]) == peak][0]
print("total", int(row[2].replace(",", "")) == report["peak"]["total_bytes"])
tree = text.split("\n%s " % row[0].rjust(3), 1)[1]
first = re.search(r"^->[\d.]+% \(([\d,]+)B\) 0x[0-9A-F]+: (\S+) \((\S+)\)", tree, re.M)
top = report["contexts"][0]
print("bytes", int(first.group(1).replace(",", "")) == top["peak_bytes"])
print("frame", first.group(2) == top["frames"][0]["function"],
      first.group(3) == "%s:%d" % (top["frames"][0]["file"], top["frames"][0]["line"]))
