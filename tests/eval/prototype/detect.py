#!/usr/bin/env python3
"""detect.py: a prototype leak detector built on strata's lifetime table.

    detect.py [-v] PROFILE...        writes PROFILE-minus-.strata + .life.json

Reads a profile of version 3 with lifetimes (with tests/profile-query's
parser), and writes a JSON with a `leaks` list in
the shape scripts/leak-eval scores (headline, frames, kind, parts, words),
and a `small` list of findings under 1% of the peak.

The method (FINDINGS.md says why each parameter is what it is):

  horizon   H = N - EXIT_EPOCHS: what is alive at the start of epoch H is
            "kept to the end" (still alive at X, or freed in the release at
            exit, which happens in the last epochs).
  node      the sites of one headline path (allocation frame .. headline
            frame) aggregated: the calling-context tree cut where it can be
            fixed.
  active    [a, H), a = the node's first birth epoch; at least MIN_EPOCHS.
  retention r_q = kept bytes / born bytes in each of QUARTERS equal parts
            of the active span.  A leak keeps a steady share of what it
            makes: every part makes and keeps (r_q > 0), and
            min r_q >= STEADY * max r_q.  Start-up tables and high-water
            marks keep only the first part; caches and random walks keep
            mostly the last; working sets, temporaries and batches keep
            nothing (or only the last batch).
  finding   leaking nodes joined when they have the same headline function,
            when they die together at exit by the same program frame, or
            when their kept blocks come from the same epochs in the same
            proportions (total variation <= SAME).
  small     findings under SMALL_SHARE of the peak go to `small`.
"""

import collections
import fnmatch
import json
import os
import pickle
import sys

import importlib.machinery  # noqa: E402
import importlib.util  # noqa: E402

_here = os.path.dirname(os.path.abspath(__file__))
_loader = importlib.machinery.SourceFileLoader(
    "profile_query", os.path.join(_here, "..", "..", "profile-query"))
_spec = importlib.util.spec_from_loader("profile_query", _loader)
_pq = importlib.util.module_from_spec(_spec)
sys.modules["profile_query"] = _pq
_loader.exec_module(_pq)
Profile = _pq.Profile

EXIT_EPOCHS = 2      # the release at exit: the last two epochs (1/64..1/16 of the run)
MIN_EPOCHS = 4       # one epoch at least in each part of the active span (QUARTERS)
QUARTERS = 4         # the active span cut in 4 parts
STEADY = 0.6         # the least-keeping part keeps at least 0.6 of the most-keeping part's share
SAME = 0.35          # total variation between kept-block distributions of one structure
REPLACED = 0.75     # kept bytes replacing at least 3/4 as many older bytes of another node: a turnover
ACTIVE_SHARE = 0.01  # the run's work ends with the last epoch making 1% of a mean epoch's births
SMALL_SHARE = 0.01   # findings under 1% of the peak are listed apart
WRAPPER_FANIN = 3    # a function that allocates for 3 or more callers is a wrapper

SYSTEM_DIRS = ("/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/", "/usr/libexec/")
ALLOCATORS = ("malloc", "calloc", "realloc", "free", "memalign", "posix_memalign", "valloc",
              "aligned_alloc", "reallocarray", "__libc_memalign", "strdup", "strndup",
              "__strdup", "__strndup")
WRAPPER_PREFIXES = ("g_malloc", "g_try_malloc", "g_realloc", "g_try_realloc", "g_slice_alloc",
                    "g_strdup", "g_strndup", "g_memdup", "std::allocator<",
                    "std::__new_allocator<", "__gnu_cxx::new_allocator<",
                    "std::allocator_traits<", "std::_Vector_base<", "operator new",
                    "xmalloc", "xcalloc", "xrealloc", "xstrdup")
# libstdc++'s and libc++'s headers, by name (plot/analyze/own_code.cpp's list)
STD_HEADERS = ("stl_*.h", "*.tcc", "basic_string.h", "cow_string.h", "new_allocator.h",
               "alloc_traits.h", "allocator.h", "allocated_ptr.h", "hashtable.h",
               "hashtable_policy.h", "shared_ptr.h", "shared_ptr_base.h", "unique_ptr.h",
               "unordered_map.h", "unordered_set.h", "char_traits.h", "std_function.h",
               "functional_hash.h", "ptr_traits.h", "move.h", "invoke.h", "refwrap.h",
               "node_handle.h", "std_thread.h", "std_mutex.h", "ios_base.h", "locale_facets*.h",
               "basic_ios.h", "regex*.h", "__*")


def short(name):
    """The function's name without its parameters, for comparing."""
    depth = 0
    for i, c in enumerate(name):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "(" and depth == 0 and i > 0:
            return name[:i]
    return name


def load(path):
    """The profile without its snapshots, and its peak; cached beside it
    (PROFILE.pq.pickle) so that sweeps of the parameters parse once."""
    cache = path + ".pq.pickle"
    if os.path.exists(cache) and os.path.getmtime(cache) >= os.path.getmtime(path):
        with open(cache, "rb") as f:
            return pickle.load(f)
    p = Profile(path)
    peak = max((s.heap for s in p.snapshots if s.kind == "peak"), default=0)
    p.snapshots, p.events = [], []
    with open(cache, "wb") as f:
        pickle.dump((p, peak), f)
    return p, peak


class Analysis:
    def __init__(self, path, verbose=False):
        self.path = path
        self.verbose = verbose
        self.p, self.peak = load(path)
        self.lt = self.p.lifetimes
        if self.lt is None:
            raise SystemExit(f"{path}: no lifetimes")
        self.program = None
        for fr in self.p.frames.values():
            if fr.function == "main" and fr.obj:
                self.program = fr.obj
                break
        # the program's own source files: those of its frames that are not inlined
        self.own_files = {fr.file for fr in self.p.frames.values()
                          if fr.obj == self.program and not fr.inlined and fr.file}
        self.fanin = self.caller_fanin()

    # ---- frames: own code, wrappers, headline ------------------------------

    def caller_fanin(self):
        """function name -> the distinct functions that call it, over every
        site of the profile (how many places allocate through it)."""
        callers = collections.defaultdict(set)
        for ids in self.p.sites.values():
            for inner, outer in zip(ids, ids[1:]):
                fi, fo = self.p.frames[inner], self.p.frames[outer]
                if fi.function:
                    callers[fi.function].add(fo.function or fo.address)
        return {f: len(c) for f, c in callers.items()}

    def own(self, fr):
        if not fr.function or fr.obj != self.program:
            return False
        if fr.obj.startswith(SYSTEM_DIRS):
            return False
        name = fr.function
        if name.startswith(("std::", "__gnu_cxx::", "operator new", "operator delete")):
            return False
        base = os.path.basename(fr.file)
        if base and ("." not in base or any(fnmatch.fnmatchcase(base, p) for p in STD_HEADERS)):
            return False  # a standard header, inlined into the program
        if fr.inlined and base.endswith((".h", ".hh", ".hpp")) and fr.file not in self.own_files:
            return False  # a library's header (gstbuffer.h's gst_buffer_unref), inlined
        return True

    def generic(self, fr):
        name = fr.function
        if not name:
            return True  # an unnamed frame cannot be a headline
        if name in ALLOCATORS or name.startswith(WRAPPER_PREFIXES):
            return True
        return self.fanin.get(name, 0) >= WRAPPER_FANIN

    def headline_index(self, ids):
        """The first frame in the program's own code that is not a wrapper of
        its own (a function allocating for many callers); without own code,
        the first named frame that is not an allocator nor generic."""
        frames = [self.p.frames[f] for f in ids]
        owned = [i for i, fr in enumerate(frames) if self.own(fr)]
        if owned:
            i = owned[0]
            # a wrapper of the program's own: only passes the allocation on
            while i + 1 < len(frames) and self.fanin.get(frames[i].function, 0) >= WRAPPER_FANIN \
                    and self.own(frames[i + 1]) and frames[i + 1].function != "main":
                i += 1
            return i
        for i, fr in enumerate(frames):
            if not self.generic(fr):
                return i
        return 0

    def frame_json(self, fid):
        fr = self.p.frames[fid]
        return {"function": fr.function, "name": short(fr.function) if fr.function else fr.address,
                "file": os.path.basename(fr.file), "line": fr.line,
                "object": fr.obj, "inlined": fr.inlined}

    # ---- the lifetime table, by node --------------------------------------

    def tables(self):
        lt = self.lt
        self.N = (lt.end - lt.t0) // lt.length
        per_epoch = [0] * self.N
        for (s, b), (nb, nk) in lt.born.items():
            if b < self.N:
                per_epoch[b] += nb
        mean = sum(per_epoch) / max(1, self.N)
        work_end = max((b for b, v in enumerate(per_epoch) if v >= ACTIVE_SHARE * mean), default=0)
        self.H = max(1, work_end + 1 - EXIT_EPOCHS)
        H = self.H
        born = collections.defaultdict(lambda: [0] * H)
        born_blocks = collections.defaultdict(lambda: [0] * H)
        kept = collections.defaultdict(lambda: [0] * H)
        kept_blocks = collections.defaultdict(lambda: [0] * H)
        exit_free = collections.defaultdict(collections.Counter)  # site -> free stack -> bytes
        alive_end = collections.Counter()
        for (s, b), (nb, nk) in lt.born.items():
            if b < H:
                born[s][b] += nb
                born_blocks[s][b] += nk
        for (s, b), (nb, nk) in lt.alive.items():
            alive_end[s] += nb
            if b < H:
                kept[s][b] += nb
                kept_blocks[s][b] += nk
        self.site_deaths = collections.defaultdict(collections.Counter)
        for (s, b, d, fs), (nb, nk) in lt.died.items():
            if b < d < H:
                self.site_deaths[s][(b, d)] += nb
            if b < H <= d:
                kept[s][b] += nb
                kept_blocks[s][b] += nk
                exit_free[s][fs] += nb
        return born, born_blocks, kept, kept_blocks, exit_free, alive_end

    def nodes(self):
        born, born_blocks, kept, kept_blocks, exit_free, alive_end = self.tables()
        nodes = {}
        for s, ids in self.p.sites.items():
            if s not in born:
                continue
            h = self.headline_index(ids)
            key = tuple(ids[:h + 1])
            n = nodes.get(key)
            if n is None:
                n = nodes[key] = {"key": key, "headline": ids[h], "sites": [], "born": [0] * self.H,
                                  "kept": [0] * self.H, "kept_blocks": [0] * self.H,
                                  "exit_free": collections.Counter(), "alive_end": 0,
                                  "main_site": s, "main_kept": -1,
                                  "deaths": collections.Counter()}
            n["sites"].append(s)
            n["deaths"].update(self.site_deaths.get(s, {}))
            for b in range(self.H):
                n["born"][b] += born[s][b]
                n["kept"][b] += kept[s][b]
                n["kept_blocks"][b] += kept_blocks[s][b]
            n["exit_free"].update(exit_free[s])
            n["alive_end"] += alive_end[s]
            if sum(kept[s]) > n["main_kept"]:
                n["main_kept"], n["main_site"] = sum(kept[s]), s
        return list(nodes.values())

    # ---- the judgement -----------------------------------------------------

    def judge(self, n):
        """(leaks, why): a steady share kept all through the active span."""
        first = next((b for b, v in enumerate(n["born"]) if v), None)
        if first is None:
            return False, "nothing born before the horizon"
        span = self.H - first
        n["first"] = first
        if span < MIN_EPOCHS:
            return False, f"active for {span} epochs only"
        bounds = [first + span * q // QUARTERS for q in range(QUARTERS + 1)]
        ratios = []
        for q in range(QUARTERS):
            b = sum(n["born"][bounds[q]:bounds[q + 1]])
            k = sum(n["kept"][bounds[q]:bounds[q + 1]])
            ratios.append(k / b if b else 0.0)
        n["ratios"] = ratios
        if min(ratios) <= 0:
            return False, "a part keeps nothing " + fmt(ratios)
        if min(ratios) < STEADY * max(ratios):
            return False, "unsteady " + fmt(ratios)
        n["bounds"] = bounds
        return True, "steady " + fmt(ratios)

    def replaces(self, n, nodes):
        """Another node whose older bytes (born in the first part of n's span
        or before) die in the later parts as n's kept bytes are born: n is
        the turnover of a bounded structure (a cache's entries moving from the
        line that filled it to the line that replaces them), not a leak."""
        bounds = n["bounds"]
        kept_q = [sum(n["kept"][bounds[q]:bounds[q + 1]]) for q in range(1, QUARTERS)]
        want = sum(kept_q)
        if want == 0:
            return None
        for m in nodes:
            if m is n or not m["deaths"]:
                continue
            dq = [0] * (QUARTERS - 1)
            for (b, d), nb in m["deaths"].items():
                if b < bounds[1] and d >= bounds[1]:
                    q = next(q for q in range(1, QUARTERS) if d < bounds[q + 1])
                    dq[q - 1] += nb
            matched = sum(min(a, b) for a, b in zip(dq, kept_q))
            if matched >= REPLACED * want:
                return m
        return None

    def distribution(self, n):
        total = sum(n["kept_blocks"]) or 1
        return [v / total for v in n["kept_blocks"]]

    def exit_holder(self, n):
        """The program frame (or the stack) that frees most of what the node
        keeps, in the release at exit; None when it is still alive at X."""
        if not n["exit_free"]:
            return None
        fs, nb = n["exit_free"].most_common(1)[0]
        if nb < n["alive_end"]:
            return None
        ids = self.p.free_stacks.get(fs, [])
        own = [f for f in ids if self.own(self.p.frames[f])]
        if own:
            # the outermost own frame below main: the code that holds the memory
            # (log_shutdown rather than its helper drop_oldest)
            below_main = [f for f in own if self.p.frames[f].function != "main"]
            f = below_main[-1] if below_main else own[0]
            return ("own", self.p.frames[f].function)
        return ("stack", fs)

    def findings(self):
        nodes = self.nodes()
        leaking = []
        for n in nodes:
            ok, why = self.judge(n)
            n["why"] = why
            n["kept_total"] = sum(n["kept"])
            if self.verbose and n["kept_total"] >= 0.002 * self.peak:
                print(f"  {'LEAK' if ok else '    '} {n['kept_total']:>10} "
                      f"{self.describe(n)}: {why}", file=sys.stderr)
            if ok:
                leaking.append(n)
        still = []
        for n in leaking:
            m = self.replaces(n, nodes)
            if m is None:
                still.append(n)
            elif self.verbose:
                print(f"  turnover: {self.describe(n)} replaces {self.describe(m)}", file=sys.stderr)
        leaking = still
        # one structure: same holder at exit, or the same distribution of kept blocks
        parent = list(range(len(leaking)))

        def find(i):
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i
        dists = [self.distribution(n) for n in leaking]
        holders = [self.exit_holder(n) for n in leaking]
        for i in range(len(leaking)):
            for j in range(i + 1, len(leaking)):
                tv = 0.5 * sum(abs(a - b) for a, b in zip(dists[i], dists[j]))
                same_holder = holders[i] is not None and holders[i] == holders[j]
                same_function = (self.p.frames[leaking[i]["headline"]].function ==
                                 self.p.frames[leaking[j]["headline"]].function)
                if tv <= SAME or same_holder or same_function:
                    parent[find(i)] = find(j)
        groups = collections.defaultdict(list)
        for i, n in enumerate(leaking):
            groups[find(i)].append(n)
        out = []
        for members in groups.values():
            members.sort(key=lambda n: -n["kept_total"])
            out.append(self.finding(members))
        out.sort(key=lambda f: -f["kept_bytes"])
        return out

    def describe(self, n):
        return " < ".join((short(self.p.frames[f].function) or "?")[:40] for f in n["key"][-3:])

    def finding(self, members):
        main = members[0]
        total = sum(n["kept_total"] for n in members)
        ids = self.p.sites[main["main_site"]]
        h = ids.index(main["headline"])
        frames = [self.frame_json(f) for f in ids]  # the main part's whole calling context
        holder = None
        for n in members:
            holder = holder or self.exit_holder(n)
        exit_words = ""
        if holder and holder[0] == "own":
            exit_words = f", freed at exit by {short(holder[1])}"
        elif holder:
            exit_words = ", freed at exit"
        alive = sum(n["alive_end"] for n in members)
        hl = self.frame_json(main["headline"])
        share = 100.0 * main["kept_total"] / total if total else 0
        # every distinct headline function among the parts, with its share
        by_function = collections.Counter()
        for n in members:
            by_function[short(self.p.frames[n["headline"]].function) or "?"] += n["kept_total"]
        places = ", ".join(f"{100.0 * v / total:.0f}% at {k}" for k, v in by_function.most_common(3)
                           if v >= 0.01 * total) \
            if total else hl["name"]
        words = (f"{len(members)} place(s), {total / 1048576:.2f} MiB kept from all through the "
                 f"run: {places}{exit_words}")
        # Kept to the end and given back by the program at exit: a leak, or a
        # batch program's growth (a compiler's trees); the lifetimes cannot
        # tell which, so it is worded as growth that a steady program leaks.
        freed_at_exit = total > 0 and total - alive >= 0.5 * total
        kind = "steady_growth" if freed_at_exit else "leak"
        if kind == "steady_growth":
            words += ": grows for the whole run and is freed only at exit, a leak if this program should reach a steady state"
        return {
            "kind": kind,
            "headline": hl,
            "frames": frames,
            "kept_bytes": total,
            "end_bytes": alive,
            "freed_before_exit": alive == 0,
            "freed_at_exit": freed_at_exit,
            "freed_at_exit_by": short(holder[1]) if holder and holder[0] == "own" else None,
            "words": words,
            "why": main["why"],
            "parts": [{"headline": self.frame_json(n["headline"]), "kept_bytes": n["kept_total"],
                       "frames": [self.frame_json(f) for f in n["key"]]} for n in members],
        }


def fmt(ratios):
    return "[" + " ".join(f"{r:.2f}" for r in ratios) + "]"


def run(path, verbose):
    a = Analysis(path, verbose)
    found = a.findings()
    big = [f for f in found if f["kept_bytes"] >= SMALL_SHARE * a.peak]
    small = [f for f in found if f["kept_bytes"] < SMALL_SHARE * a.peak]
    out = path[:-len(".strata")] if path.endswith(".strata") else path
    doc = {"file": path, "peak": {"bytes": a.peak}, "epochs": a.N, "horizon": a.H,
           "leaks": big, "small_leaks": small}
    with open(out + ".life.json", "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
    return big, small


def main(argv):
    verbose = "-v" in argv
    for path in [x for x in argv[1:] if x != "-v"]:
        if verbose:
            print(f"== {path}", file=sys.stderr)
        big, small = run(path, verbose)
        print(f"{os.path.basename(path)}: {len(big)} finding(s), {len(small)} small: " +
              "; ".join(f["words"] for f in big))


if __name__ == "__main__":
    main(sys.argv)
