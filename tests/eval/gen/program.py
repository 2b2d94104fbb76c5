"""program.py: one generated program, composed from components with
parameters drawn from its seed, and its truth file (tests/eval's format, read
by scripts/leak-eval unchanged).

The seed decides everything: the language and optimisation level, the run's
length (cycles of requests), whether allocations go through wrappers and how
many levels of them, whether each cycle is marked with STRATA_MARK, the
components and their parameters, and whether the program leaks: about half
do, a third of those twice, each leak composed into a component that can host
it (components.KINDS, their `hosts`).  The leak-free half always holds
bounded structures that look like growth at first (caches filling, pools at
their high water, tables over fixed keys, start-up tables, working sets,
random walks)."""

from components import KINDS, Leak
from cgen import indent, sub
from rng import Rng

# The seed sets: disjoint ranges.  No parameter of the detector is ever
# chosen by looking at the held-out set's results.
SETS = {"tuning": (1, 1000), "heldout": (1001, 9999)}

# What a leak can be: (host kind, shape), with the weight of each.
LEAK_SHAPES = [
    (("sessions", "orphan"), 3),
    (("cache", "stale_value"), 2),
    (("pool", "unreturned"), 2),
    (("arena", "large_dropped"), 2),
    (("table", "unbounded_keys"), 2),
    (("batch", "dropped_batch"), 1),
    (("vector", "old_array"), 1),
    (("workers", "one_thread"), 2),
    (("errors", "error_reply"), 3),
    (("errors", "early_return"), 2),
    (("messages", "retry"), 2),
    (("metrics", "snapshot"), 3),
]

# The other components a program may hold, by weight.
FILLERS = [("sessions", 3), ("cache", 3), ("pool", 2), ("arena", 2), ("table", 3),
           ("startup", 2), ("batch", 2), ("vector", 2), ("workers", 1), ("messages", 2),
           ("metrics", 2), ("accumulator", 1)]

# The exit behaviour a leak may have, by shape.
AT_EXIT = {"unbounded_keys": ("freed", "reachable"), "dropped_batch": ("lost",),
           "old_array": ("lost",)}

MIN_EXPECTED = 8     # leak events the plan must expect, at least
STILL_GROWING = (0.6, 0.9)  # growth: under 90 % of its peak at 60 % of the run
MIN_EVENTS = 4       # leak events a run must really have (generate --build checks)

WRAPPER_NAMES = [
    ("xmalloc", "mem_alloc", "obj_alloc", "xfree", "xrealloc"),
    ("{proj}_malloc", "{proj}_alloc", "{proj}_new_block", "{proj}_free", "{proj}_realloc"),
    ("checked_malloc", "tracked_alloc", "zone_alloc", "zone_free", "checked_realloc"),
]
PROJECTS = ("srv", "app", "core", "net", "db", "util", "gw")
MARK_LABELS = ("tick", "batch", "cycle", "frame", "round", "poll")


def set_of(seed):
    for name, (lo, hi) in SETS.items():
        if lo <= seed <= hi:
            return name
    raise ValueError(f"seed {seed} is in no set ({SETS})")


class Program:
    def __init__(self, seed):
        self.seed = seed
        self.set = set_of(seed)
        self.name = f"gen{seed:04d}"
        rng = Rng(seed)
        self.rng = rng
        self.opt = rng.weighted([("-O2", 0.7), ("-O0", 0.3)])
        self.language = "C++" if rng.chance(0.25) else "C"
        self.cycles = rng.int(30, 120)
        self.requests = rng.int(10, 50)
        self.random_seed = rng.next64() | 1
        self.proj = rng.choice(PROJECTS)
        self.wrapper_depth = rng.weighted([(0, 0.35), (1, 0.3), (2, 0.2), (3, 0.15)])
        self.wrappers = self.plan_wrappers(rng.fork("wrappers"))
        self.markers = rng.chance(0.5)
        self.mark_label = rng.choice(MARK_LABELS)
        self.leaking = rng.chance(0.5)
        self.nleaks = (2 if rng.chance(0.33) else 1) if self.leaking else 0
        self.components = []
        self.used_prefixes = set()
        self.compose(rng.fork("compose"))

    # ---- composition --------------------------------------------------------

    def plan_wrappers(self, rng):
        if self.wrapper_depth == 0:
            return None
        names = [n.format(proj=self.proj) for n in rng.choice(WRAPPER_NAMES)]
        levels = names[:3][:self.wrapper_depth]
        return {"levels": levels, "alloc": levels[-1], "free": names[3],
                "realloc": names[4]}

    def add(self, kind, rng):
        cls = KINDS[kind]
        free = [p for p in cls.prefixes if p not in self.used_prefixes] or list(cls.prefixes)
        prefix = rng.choice(free)
        self.used_prefixes.add(prefix)
        c = cls(self, len(self.components) + 1, prefix, rng.fork(f"{kind}{len(self.components)}"))
        c.plan()
        self.components.append(c)
        return c

    def compose(self, rng):
        # the requests' own handling: a handler with an error path, or messages
        self.add(rng.choice(["errors", "errors", "messages"]), rng)
        for _ in range(self.nleaks):
            self.add_leak(rng)
        extra = rng.int(2, 5)
        for _ in range(extra):
            kinds = [(k, w) for k, w in FILLERS
                     if sum(c.kind == k for c in self.components) < 2]
            self.add(rng.weighted(kinds), rng)
        if self.language == "C++" and not any(
                c.kind in ("sessions", "cache", "vector") and not (c.kind == "vector" and c.leak)
                for c in self.components):
            self.add(rng.choice(["sessions", "cache", "vector"]), rng)
        if not self.leaking:
            while sum(c.trap for c in self.components) < 2:
                self.add(rng.choice(["cache", "pool", "table", "startup", "sessions",
                                     "metrics", "vector"]), rng)

    def add_leak(self, rng):
        taken = {c.kind for c in self.components if c.leak is not None}
        shapes = [(s, w) for s, w in LEAK_SHAPES if s[0] not in taken]
        for attempt in range(40):
            kind, shape = rng.weighted(shapes)
            host = next((c for c in self.components if c.kind == kind and c.leak is None), None)
            if host is None:
                host = self.add(kind, rng)
            at_exit = rng.choice(AT_EXIT.get(shape, ("lost", "lost", "freed")))
            start = 0 if rng.chance(0.65) else int(self.cycles * rng.uniform(0.4, 0.7))
            leak = Leak(at_exit, start)
            leak.shape_hint = shape
            host.leak = leak
            host.plan_leak(leak)
            if leak.expected >= MIN_EXPECTED:
                return host
            host.leak = None
            host.plan()
        raise RuntimeError(f"seed {self.seed}: no leak with {MIN_EXPECTED} events")

    # ---- the truth ----------------------------------------------------------

    def leaks(self):
        return [c for c in self.components if c.leak is not None]

    def threads(self):
        return any(c.threads for c in self.components)

    def truth(self):
        hosts = self.leaks()
        about = "; ".join(c.describe() for c in self.components)
        if hosts:
            about += ". Leak" + ("s: " if len(hosts) > 1 else ": ") + "; ".join(
                f"{c.p} ({c.i}): {c.leak.about}" + (
                    f", from cycle {c.leak.start_cycle}" if c.leak.start_cycle else "")
                for c in hosts)
        else:
            about += ". No leak"
        growing = [c for c in self.components if getattr(c, "still_growing", False)]
        if growing:
            about += (". Still growing at the end of the run (growth): "
                      + ", ".join(f"{c.p} ({c.i})" for c in growing))
        t = {
            "program": self.name,
            "language": self.language,
            "build": self.opt + (", threads" if self.threads() else ""),
            "about": about,
            "generator": {
                "seed": self.seed,
                "set": self.set,
                "command": f"tests/eval/gen/generate --out DIR {self.seed}",
                "cycles": self.cycles,
                "requests_per_cycle": self.requests,
                "wrappers": self.wrappers["levels"] if self.wrappers else [],
                "markers": self.markers,
                "components": [f"{c.kind} {c.p}_*_{c.i}" for c in self.components],
                "leaks": [c.leak.truth(c) for c in hosts],
                "still_growing": [f"{c.kind} {c.p}_*_{c.i}" for c in self.components
                                  if getattr(c, "still_growing", False)],
            },
        }
        if hosts:
            t["leak"] = {
                "functions": unique(f for c in hosts for f in c.leak.functions),
                "headline": unique(f for c in hosts for f in c.leak.headline),
                "fix_at": ", ".join(unique(c.leak.fix_at for c in hosts)),
                "freed_at_exit": all(c.leak.at_exit == "freed" for c in hosts),
            }
            if len(hosts) > 1:
                t["leak"]["each"] = [list(c.leak.functions) for c in hosts]
            if self.wrappers:
                t["leak"]["wrapper"] = self.wrappers["alloc"]
        growth = [c.growth for c in self.components if c.growth]
        if growth:
            t["growth"] = {"functions": unique(f for g in growth for f in g["functions"]),
                           "headline": unique(f for g in growth for f in g["headline"])}
        t["variants"] = [{"name": self.name, "args": [], "leaks": bool(hosts)}]
        return t

    def truth_functions(self):
        """Every function the truth names: they must be in the binary."""
        t = self.truth()
        names = set(t.get("leak", {}).get("functions", []))
        names |= set(t.get("leak", {}).get("headline", []))
        names |= set(t.get("growth", {}).get("functions", []))
        names |= set(t.get("growth", {}).get("headline", []))
        for c in self.leaks():
            names.add(c.leak.fix_at)
        return sorted(names)

    # ---- growth measured ----------------------------------------------------

    def probes(self):
        """[(component, C expression, functions)]: the bounded structures whose
        size is printed each cycle under GEN_SIZES (not those of a leak's host:
        its leak is its growth)."""
        out = []
        for c in self.components:
            pr = c.probe() if c.leak is None else None
            if pr:
                out.append((c, pr[0], pr[1]))
        return out

    def judge_growth(self, sizes):
        """sizes: {component index: [size at the end of each cycle]}, from a
        native run.  Marks as growth each structure still growing late in the
        run (STILL_GROWING), and the workers whose rings fill late."""
        at, share = STILL_GROWING
        late = int(at * (self.cycles - 1))
        for c, _, functions in self.probes():
            series = sizes.get(c.i)
            if not series or len(series) != self.cycles:
                raise RuntimeError(f"{self.name}: no sizes for {c.p}_*_{c.i}")
            if max(series) > 0 and series[late] < share * max(series):
                self.mark_growth(c, functions)
        for c in self.components:
            if c.kind == "workers" and c.fill_cycle() > late:
                self.mark_growth(c, [c.fn("result")])

    @staticmethod
    def mark_growth(c, functions):
        c.still_growing = True
        if c.growth:
            functions = unique(c.growth["functions"] + functions)
        c.growth = {"functions": functions, "headline": functions}

    # ---- the program --------------------------------------------------------

    def source(self):
        parts = [self.head(), PRELUDE.replace("@SEED@", f"0x{self.random_seed:x}"),
                 self.wrapper_code()]
        parts += [c.code() for c in self.components]
        parts.append(self.main_code())
        return "\n".join(p.strip("\n") + "\n" for p in parts if p)

    def head(self):
        includes = ["stdint.h", "stdio.h", "stdlib.h", "string.h"]
        for c in self.components:
            for h in c.includes():
                if h not in includes:
                    includes.append(h)
        lines = [f"/* {self.name}: a program made by tests/eval/gen/generate from seed "
                 f"{self.seed} ({self.set} set);",
                 " * do not edit, generate it again.  Its truth file says what it holds and "
                 "where it leaks. */"]
        lines += [f"#include <{h}>" for h in sorted(includes)]
        if self.markers:
            lines.append('\n#include "strata.h"')
        return "\n".join(lines) + "\n"

    def wrapper_code(self):
        w = self.wrappers
        if not w:
            return ""
        out = ["/* The program's allocation wrappers. */",
               "static unsigned long alloc_calls, alloc_bytes, alloc_live;", ""]
        inner = "malloc"
        bodies = [
            """NOINLINE static void *@NAME@(size_t n)
{
   void *p = malloc(n);
   if (p == NULL) {
      fprintf(stderr, "out of memory (%zu bytes)\\n", n);
      abort();
   }
   __atomic_add_fetch(&alloc_calls, 1, __ATOMIC_RELAXED);
   return p;
}""",
            """NOINLINE static void *@NAME@(size_t n)
{
   void *p = @INNER@(n);
   __atomic_add_fetch(&alloc_bytes, n, __ATOMIC_RELAXED);
   return p;
}""",
            """NOINLINE static void *@NAME@(size_t n)
{
   void *p = @INNER@(n == 0 ? 1 : n);
   __atomic_add_fetch(&alloc_live, 1, __ATOMIC_RELAXED);
   return p;
}"""]
        for level, name in enumerate(w["levels"]):
            out.append(sub(bodies[level], {"NAME": name, "INNER": inner}))
            out.append("")
            inner = name
        live = ("      __atomic_sub_fetch(&alloc_live, 1, __ATOMIC_RELAXED);\n"
                if len(w["levels"]) == 3 else "")
        out.append(sub("""NOINLINE static void @FREE@(void *p)
{
   if (p != NULL) {
@LIVE@      free(p);
   }
}

NOINLINE static void *@REALLOC@(void *p, size_t n)
{
   void *q = realloc(p, n);
   if (q == NULL) {
      fprintf(stderr, "out of memory (%zu bytes)\\n", n);
      abort();
   }
   __atomic_add_fetch(&alloc_calls, 1, __ATOMIC_RELAXED);
   return q;
}""", {"FREE": w["free"], "REALLOC": w["realloc"], "LIVE": live}))
        return "\n".join(out) + "\n"

    def main_code(self):
        order = list(self.components)
        self.rng.fork("order").shuffle(order)
        request = [s for c in order for s in c.per_request()]
        cycle = [s for c in self.components for s in c.per_cycle()]
        startup = [s for c in self.components for s in c.startup()]
        shutdown = [s for c in reversed(self.components) for s in c.shutdown()]
        stats = [s for c in self.components for s in c.stats()]
        probes = self.probes()
        if probes:
            cycle.append("if (print_sizes) {\n" + "\n".join(
                f'   fprintf(stderr, "size %u {c.i} %lu\\n", cycle, (unsigned long)({expr}));'
                for c, expr, _ in probes) + "\n}")
        mark = f'      STRATA_MARK("{self.mark_label}");\n' if self.markers else ""
        env = {
            "REQUEST": indent("\n".join(request), 3) if request else "   (void)cycle;\n   (void)req;",
            "CYCLE": indent("\n".join(cycle), 3) if cycle else "   (void)cycle;",
            "STARTUP": indent("\n".join(startup), 3) + "\n" if startup else "",
            "SHUTDOWN": indent("\n".join(shutdown), 3),
            "STATS": "\n".join(f'   fprintf(stderr, "stat {s} %lu\\n", (unsigned long){s});'
                               for s in stats),
            "CYCLES": self.cycles, "REQUESTS": self.requests, "MARK": mark,
            "NAME": self.name,
        }
        return sub(r"""
NOINLINE static void serve_request(unsigned cycle, unsigned req)
{
@REQUEST@
}

/* GEN_SIZES set: the sizes of the bounded structures, each cycle (for
 * tests/eval/gen/generate, which tells a structure still growing at the end
 * from one that filled early). */
static int print_sizes;

NOINLINE static void end_of_cycle(unsigned cycle)
{
@CYCLE@
}

int main(void)
{
   print_sizes = getenv("GEN_SIZES") != NULL;
@STARTUP@   for (unsigned cycle = 0; cycle < @CYCLES@; cycle++) {
@MARK@      for (unsigned r = 0; r < @REQUESTS@; r++)
         serve_request(cycle, cycle * @REQUESTS@ + r);
      end_of_cycle(cycle);
   }
@SHUTDOWN@
   last_block = NULL;
@STATS@
   fprintf(stderr, "@NAME@: %u requests, work %lu\n", @CYCLES@u * @REQUESTS@u, work_sum);
   return 0;
}
""", env)


def unique(items):
    out = []
    for x in items:
        if x not in out:
            out.append(x)
    return out


PRELUDE = r"""
/* noinline and noclone: each function keeps its own frame and its name (no
 * .constprop or .isra copy) at -O2. */
#define NOINLINE __attribute__((noinline, noclone))
#define UNUSED __attribute__((unused))

/* The program's pseudo-random numbers (64-bit LCG, high bits). */
static uint64_t random_state = @SEED@ULL;

static unsigned next_random(void)
{
   random_state = random_state * 6364136223846793005ULL + 1442695040888963407ULL;
   return (unsigned)(random_state >> 33);
}

static unsigned random_below(unsigned n)
{
   return next_random() % n;
}

UNUSED static size_t random_size(size_t lo, size_t hi)
{
   return lo + next_random() % (unsigned)(hi - lo + 1);
}

/* 0 to n - 1, the small ones the most common (power 1: uniform). */
UNUSED static unsigned skewed_below(unsigned n, unsigned power)
{
   uint64_t x = 65536;
   for (unsigned k = 0; k < power; k++)
      x = x * random_below(65536) >> 16;
   return (unsigned)(x * n >> 16);
}

UNUSED static unsigned hash_name(const char *s)
{
   unsigned h = 2166136261u;
   while (*s != '\0')
      h = (h ^ (unsigned char)*s++) * 16777619u;
   return h;
}

/* What the work computes, printed at exit, so that none of it is optimised
 * away; the last block made, so that no allocation is either. */
static unsigned long work_sum;
static void *volatile last_block;

/* Writes a block's first bytes, as a program writes a header. */
UNUSED static void fill_block(void *p, size_t n, unsigned tag)
{
   memset(p, (int)(tag & 0x7f), n < 64 ? n : 64);
   last_block = p;
   work_sum += tag + n;
}

NOINLINE static unsigned long digest(const void *p, size_t n)
{
   const unsigned char *c = (const unsigned char *)p;
   unsigned long h = 5381;
   for (size_t k = 0; k < n && k < 64; k++)
      h = h * 33 + c[k];
   return h;
}
"""
