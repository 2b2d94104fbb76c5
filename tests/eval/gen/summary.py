"""summary.py: generate --summarize NAME=RESULTS.json...: the figures of
scripts/leak-eval runs on generated sets, side by side: precision, recall and
findings per leak, for each mode.

leak-eval scores a program, not a leak: a program with two leaks is found
when either is named.  The last column counts each leak apart, from the
truth files next to the results (RESULTS is DIR/eval/results.json, the
truths DIR/*.truth): a leak is named when a right finding's headline is one
of its functions or headline functions (a lower bound: leak-eval also
accepts a finding that names the leak in its frames only).  Findings per
leak are the right findings and parts of leaks over the leaks so named
(leak-eval's own figure divides by the programs found, and so counts a
two-leak program's two findings as two for one leak)."""

import json
import os

from stratatest.findings import names_function
from stratatest.scores import ratio, show


def truth_leaks(results_path):
    """{variant: [set of names of one leak]} from the truth files."""
    truth_dir = os.path.dirname(os.path.dirname(os.path.abspath(results_path)))
    leaks = {}
    for n in sorted(os.listdir(truth_dir)):
        if n.endswith(".truth"):
            with open(os.path.join(truth_dir, n), encoding="utf-8") as f:
                t = json.load(f)
            per = [set(lk["functions"]) | set(lk["headline"])
                   for lk in t.get("generator", {}).get("leaks", [])]
            for v in t["variants"]:
                leaks[v["name"]] = per if v["leaks"] else []
    return leaks


def per_leak(doc, leaks, mode):
    named = total = 0
    for v in doc["variants"]:
        for rec in v["recordings"][mode]:
            heads = [f["headline"] for f in rec["findings"] if f["verdict"] == "right"]
            for names in leaks.get(v["name"], []):
                total += 1
                named += any(names_function(h, fn) for h in heads for fn in names)
    return named, total


def main(pairs):
    rows = []
    for pair in pairs:
        name, _, path = pair.partition("=")
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        leaks = truth_leaks(path)
        leaking = sum(v["leaks"] for v in doc["variants"])
        for mode, t in doc["summary"].items():
            rows.append((name, len(doc["variants"]), leaking, mode, t,
                         per_leak(doc, leaks, mode)))
    print(f"\n{'set':8} {'programs':>8} {'leaking':>7} {'mode':6} {'precision':>16} "
          f"{'recall':>14} {'per leak':>8} {'headline':>8} {'clean':>14} {'leaks named':>14}")
    for name, n, leaking, mode, t, (named, total) in rows:
        clean = ratio(t["clean_recordings_with_no_false"], t["clean_recordings"])
        print(f"{name:8} {n:8} {leaking:7} {mode:6} "
              f"{show(t['precision'], t['right'], t['right'] + t['false']):>16} "
              f"{show(t['recall'], t['found'], t['leaking_recordings']):>14} "
              f"{show(ratio(t['right'] + t['part'], named)):>8} {show(t['headline_share']):>8} "
              f"{show(clean, t['clean_recordings_with_no_false'], t['clean_recordings']):>14} "
              f"{show(ratio(named, total), named, total):>14}")
    print("(precision: right findings / all findings; recall: leaking programs found; "
          "per leak: right findings and parts of a leak, a leak named; headline: right findings headed where the "
          "leak can be fixed; clean: leak-free programs with no false finding; leaks named: "
          "each leak of a two-leak program counted apart, by headline)")
    return 0
