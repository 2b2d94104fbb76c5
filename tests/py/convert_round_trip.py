"""tests/py/convert_round_trip.py REPORT BACK: strata report --json of a profile
and of its massif.out export (tests/t-convert.sh): prints "peak",
"contexts" and "leaks" each followed by True when the two agree."""

import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
print("peak", a["peak"] == b["peak"])
def contexts(r):
    return [([f["name"] for f in c["frames"]], c["peak_bytes"], c["end_bytes"])
            for c in r["contexts"] if c["frames"]]
print("contexts", contexts(a) == contexts(b))
print("leaks", [l["headline"]["name"] for l in a["leaks"]] ==
      [l["headline"]["name"] for l in b["leaks"]] != [])
