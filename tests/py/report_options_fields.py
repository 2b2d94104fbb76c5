"""tests/py/report_options_fields.py REPORT: the fields of strata report --json
that docs/manual.md promises (tests/t-report-options.sh): a line
"missing ..." for each one not there, then the counts of contexts and
leaks, the sum of the shares of spacetime and whether every confidence is
in [0, 1]."""

import json, sys
doc = json.load(open(sys.argv[1]))
need = {
    "": ["command", "time_unit", "snapshots", "peak", "final", "contexts", "leaks", "options",
         "duration", "cycles", "grouping"],
    "peak": ["time", "heap_bytes", "extra_bytes", "stacks_bytes"],
    "contexts": ["frames", "spacetime_pct", "peak_bytes", "end_bytes"],
    "leaks": ["frames", "kind", "growth_bytes", "cycles", "end_bytes", "freed_before_exit",
              "confidence"],
    "frames": ["function", "file", "line", "object"],
}
for key in need[""]:
    if key not in doc: print("missing", key)
for key in need["peak"]:
    if key not in doc["peak"]: print("missing peak.", key)
for part in ("contexts", "leaks"):
    for item in doc[part]:
        for key in need[part]:
            if key not in item: print("missing", part, key)
        for frame in item["frames"]:
            for key in need["frames"]:
                if key not in frame: print("missing frame", key)
print("contexts", len(doc["contexts"]), "leaks", len(doc["leaks"]))
print("sum", round(sum(c["spacetime_pct"] for c in doc["contexts"]), 6))
print("confidence", all(0 <= l["confidence"] <= 1 for l in doc["leaks"]))
