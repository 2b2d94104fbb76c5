#!/usr/bin/env python3
"""score.py: runs detect.py on the bench's recordings and scores its findings
with scripts/leak-eval's own scoring (judge, totals, tables).

    score.py [--units=i,ms] [-K 2] [--cached] [-k PATTERN]...
"""
import importlib.machinery, importlib.util, json, os, sys, types, argparse
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import detect

TOP = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))

def load_leak_eval():
    path = os.path.join(TOP, "scripts", "leak-eval")
    loader = importlib.machinery.SourceFileLoader("leak_eval", path)
    spec = importlib.util.spec_from_loader("leak_eval", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod

le = load_leak_eval()
ap = argparse.ArgumentParser()
ap.add_argument("--units", default="i,ms")
ap.add_argument("-K", type=int, default=2)
ap.add_argument("--cached", action="store_true")
ap.add_argument("-k", dest="patterns", action="append", default=[])
ap.add_argument("--work", default=os.path.join(TOP, "tests", "work", "leak-eval"))
ap.add_argument("-o", default=os.path.join(TOP, "tests", "work", "leak-eval", "life-results.json"))
a = ap.parse_args()
units = a.units.split(",")
modes = [f"life-{u}" for u in units] + [m for m in ("strata", "ms") if m in ("strata", "ms")]
variants = le.selected(le.read_all(os.path.join(TOP, "tests", "eval")), a.patterns)
results = {v.name: {m: [] for m in modes} for v in variants}
for v in variants:
    for k in range(1, a.K + 1):
        for u in units:
            prof = os.path.join(a.work, f"{v.name}.{u}.{k}.strata")
            out = prof[:-len(".strata")] + ".life.json"
            if not a.cached or not os.path.exists(out):
                detect.run(prof, False)
            rep = json.load(open(out))
            results[v.name][f"life-{u}"].append(le.judge(v, rep))
        # today's detector on the same recordings
        for m, u in (("strata", "i"), ("ms", "ms")):
            rep = json.load(open(os.path.join(a.work, f"{v.name}.{u}.{k}.json")))
            results[v.name][m].append(le.judge(v, rep))
    print(f"{v.name}: " + " ".join(f"{m}:{[r['verdict'] for r in results[v.name][m]]}" for m in modes),
          file=sys.stderr, flush=True)
programs = []
for v in variants:
    if v.program not in programs:
        programs.append(v.program)
for program in programs:
    le.print_program_table(program, [v for v in variants if v.program == program], results, modes, a.K)
summary = {m: le.totals(variants, results, m) for m in modes}
for m in modes:
    le.print_summary(m, summary[m])
groups = {}
for v in variants:
    groups.setdefault(le.group_of(v), []).append(v)
by_group = {g: {m: le.totals(vs, results, m) for m in modes} for g, vs in groups.items()}
if len(groups) > 1:
    le.print_groups(by_group, modes)
json.dump({"summary": summary, "groups": by_group, "results": results}, open(a.o, "w"), indent=1)
