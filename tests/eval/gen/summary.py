"""summary.py: generate --summarize NAME=RESULTS.json...: the figures of
scripts/leak-eval runs on generated sets, side by side: precision, recall and
findings per leak, for each mode.  A generated program's truth lists each of
its leaks ("each"), and leak-eval counts leaks, not programs: recall is the
leaks found over the leaks, findings per leak the right findings and parts
of leaks over the leaks found."""

import json

from stratatest.scores import ratio, show


def main(pairs):
    rows = []
    for pair in pairs:
        name, _, path = pair.partition("=")
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        leaking = sum(v["leaks"] for v in doc["variants"])
        for mode, t in doc["summary"].items():
            rows.append((name, len(doc["variants"]), leaking, mode, t))
    print(f"\n{'set':8} {'programs':>8} {'leaking':>7} {'mode':6} {'precision':>16} "
          f"{'recall':>14} {'per leak':>16} {'headline':>8} {'clean':>14}")
    for name, n, leaking, mode, t in rows:
        clean = ratio(t["clean_recordings_with_no_false"], t["clean_recordings"])
        print(f"{name:8} {n:8} {leaking:7} {mode:6} "
              f"{show(t['precision'], t['right'], t['right'] + t['false']):>16} "
              f"{show(t['recall'], t['leaks_recalled'], t['leaks']):>14} "
              f"{show(t['findings_per_leak'], t['right'] + t['part'], t['leaks_found']):>16} "
              f"{show(t['headline_share']):>8} "
              f"{show(clean, t['clean_recordings_with_no_false'], t['clean_recordings']):>14}")
    print("(precision: right findings / all findings; recall: leaks found / leaks; "
          "per leak: right findings and parts of a leak / leaks found; headline: right findings "
          "headed where the leak can be fixed; clean: leak-free programs with no false finding)")
    return 0
