"""tests/py/gate_diff_facts.py DIFF OLD NEW: strata diff --json against the
strata report --json of its two profiles (tests/t-gate-diff.sh): prints
the lines "peak", "top" and "first" with True where they agree, and
"leaks" with the status of each leak."""

import json, sys
diff, old, new = (json.load(open(f)) for f in sys.argv[1:4])
print("peak", diff["peak"]["old"] == old["peak"]["heap_bytes"],
      diff["peak"]["new"] == new["peak"]["heap_bytes"])
def by_names(report):
    return {tuple(f["name"] for f in c["frames"]): c for c in report["contexts"] if c["frames"]}
o, n = by_names(old), by_names(new)
d = {tuple(f["name"] for f in c["frames"]): c for c in diff["contexts"]}
top = tuple(f["name"] for f in old["contexts"][0]["frames"])
print("top", d[top]["peak"]["old"] == o[top]["peak_bytes"], d[top]["peak"]["new"] == n[top]["peak_bytes"],
      d[top]["peak"]["change"] == n[top]["peak_bytes"] - o[top]["peak_bytes"] < 0)
print("first", tuple(f["name"] for f in diff["contexts"][0]["frames"]) == top)
print("leaks", [(l["status"], l["old"]["kind"], l["new"]) for l in diff["leaks"]])
