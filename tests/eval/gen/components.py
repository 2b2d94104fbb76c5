"""components.py: the parts a generated program is made of.

Each component is one realistic piece of a server (sessions, a cache, an
object pool...) with parameters drawn from the seed.  It writes its C code
(types, globals, functions named PREFIX_VERB_INDEX, so that every instance's
names are unique), the statements main runs at start-up, per request, per
cycle and at shutdown, and the counters printed at exit.  A component that can
host a leak (its `hosts`) writes the leaking variant when given a Leak: the
truth then names the function whose allocations leak (Leak.functions), the
functions a human would call the place of the leak (Leak.headline) and where
it would be fixed (Leak.fix_at).

Every allocating or leaking function is NOINLINE (noinline, noclone: no
`.constprop` copy renames it) and writes into the block after allocating it,
so that the allocation is never a tail call and the function is on the stack.
"""

from cgen import branch, indent, sub


class Leak:
    """A leak composed into a host component.

    at_exit: "lost" (no pointer left: memcheck says definitely lost),
    "freed" (kept on a list freed at shutdown: nothing is lost at exit),
    "reachable" (kept in a table that is still there at exit)."""

    def __init__(self, at_exit, start_cycle):
        self.at_exit = at_exit
        self.start_cycle = start_cycle
        self.shape = ""
        self.functions = []
        self.headline = []
        self.fix_at = ""
        self.about = ""
        self.shape_hint = None  # which of its host's shapes, when it has several
        self.counter = ""       # the C variable that counts the leaked blocks
        self.expected = 0.0     # leak events the generator expects
        self.thread = None

    def late(self, var="cycle"):
        return f"{var} >= {self.start_cycle}" if self.start_cycle else None

    def truth(self, host):
        d = {
            "component": f"{host.kind} {host.p}_*_{host.i}",
            "shape": self.shape,
            "functions": self.functions,
            "headline": self.headline,
            "fix_at": self.fix_at,
            "at_exit": self.at_exit,
            "start_cycle": self.start_cycle,
            "about": self.about,
            "events_counter": self.counter,
        }
        if self.thread is not None:
            d["thread"] = self.thread
        return d


def retired_free(leak, struct, var, free_fn, extra=""):
    """Shutdown code for a leak kept on an intrusive list (retired_next) and
    freed at exit; built with -DGEN_SELF_CHECK the list is dropped instead, so
    that memcheck shows where the kept blocks were made."""
    if leak is None or leak.at_exit != "freed":
        return ""
    body = (extra + f"{free_fn}({var});").strip().split("\n")
    lines = "".join("      " + line + "\n" for line in body)
    return (f"#ifndef GEN_SELF_CHECK\n"
            f"   while ({var} != NULL) {{\n"
            f"      struct {struct} *next = {var}->retired_next;\n"
            f"{lines}"
            f"      {var} = next;\n"
            f"   }}\n"
            f"#else\n"
            f"   {var} = NULL;\n"
            f"#endif")


def distinct_keys(rng, keys, power, draws, at):
    """How many distinct keys skewed_below(keys, power) gives in the first
    at[k] of `draws` draws (a simulation with the generator's own numbers:
    the program's differ, their distribution does not)."""
    seen, out, marks = set(), [], sorted(set(min(a, draws) for a in at))
    for d in range(1, draws + 1):
        x = 65536
        for _ in range(power):
            x = x * rng.below(65536) >> 16
        seen.add(x * keys >> 16)
        while marks and marks[0] == d:
            out.append(len(seen))
            marks.pop(0)
    while marks:
        out.append(len(seen))
        marks.pop(0)
    return out


class Component:
    kind = ""
    prefixes = ()
    hosts = ()          # the leak shapes it can host
    trap = False        # a bounded structure that looks like growth at first
    threads = False

    def __init__(self, prog, index, prefix, rng):
        self.prog = prog
        self.i = index
        self.p = prefix
        self.rng = rng
        self.leak = None
        self.growth = None      # {"functions": [...], "headline": [...]}
        wrapped = prog.wrappers and rng.chance(0.8)
        self.alloc = prog.wrappers["alloc"] if wrapped else "malloc"
        self.free = prog.wrappers["free"] if wrapped else "free"
        self.realloc = prog.wrappers["realloc"] if wrapped else "realloc"
        self.wrapped = wrapped

    def fn(self, verb):
        return f"{self.p}_{verb}_{self.i}"

    def env(self, **extra):
        e = {"p": self.p, "i": self.i, "ALLOC": self.alloc, "FREE": self.free,
             "REALLOC": self.realloc}
        e.update(extra)
        return e

    def active_requests(self, leak):
        total = self.prog.cycles * self.prog.requests
        return total - leak.start_cycle * self.prog.requests

    def counter_name(self, word):
        return f"{self.p}_{word}_{self.i}"

    # what main runs; each a list of C statements
    def startup(self):
        return []

    def per_request(self):
        return []

    def per_cycle(self):
        return []

    def shutdown(self):
        return []

    def stats(self):
        return []

    def includes(self):
        return []


# ---- sessions: a random walk bounded by a cap ------------------------------


class Sessions(Component):
    kind = "sessions"
    prefixes = ("session", "conn", "client", "peer", "channel", "link")
    hosts = ("orphan",)
    trap = True

    def plan(self):
        r = self.rng
        self.cap = r.int(40, 500)
        self.p_open = r.int(47, 58)
        if self.p_open > 50:
            # drifting up: the cap is reached by half the run (a random walk
            # without drift, 47 to 50 % opens, is bounded by chance alone)
            steps = self.prog.cycles * self.prog.requests
            drift = (2 * self.p_open - 100) / 100.0
            self.cap = min(self.cap, max(20, int(0.5 * steps * drift)))
        self.lo = r.size(32, 512)
        self.hi = self.lo + r.size(16, 4096)
        self.expire_k = r.int(4, 30)

    def plan_leak(self, leak):
        r = self.rng
        leak.shape = "orphan: shares its site with sessions closed properly"
        closes = self.active_requests(leak) * (100 - self.p_open) / 100.0
        choices = [k for k in (2, 3, 4, 4, 5, 6, 8, 12) if closes / k >= 12] or [2]
        self.expire_k = r.choice(choices)
        leak.functions = [self.fn("open")]
        leak.headline = [self.fn("open")]
        leak.fix_at = self.fn("expire")
        leak.counter = self.counter_name("orphaned")
        leak.expected = closes / self.expire_k
        leak.about = (f"1 session in {self.expire_k} times out; {self.fn('expire')} takes it "
                      "out of the table " + ("and forgets it" if leak.at_exit == "lost" else
                                             "and keeps it on a retired list freed at exit"))

    def describe(self):
        return (f"{self.p} sessions opened and closed at random ({self.p_open}% opens, "
                f"at most {self.cap} live)")

    def code(self):
        lk = self.leak
        S = f"{self.p}_{self.i}"
        e = self.env(S=S, CAP=self.cap, P_OPEN=self.p_open, LO=self.lo, HI=self.hi,
                     K=self.expire_k)
        ok = "@FREE@(s->inbox);\n@FREE@(s);"
        if lk is None:
            expire_end = indent(ok, 3)
        else:
            if lk.at_exit == "lost":
                keep = "@p@_orphaned_@i@++; /* taken out of the table, never closed */"
            else:
                keep = ("@p@_orphaned_@i@++;\ns->retired_next = @p@_retired_@i@;\n"
                        "@p@_retired_@i@ = s; /* kept for the statistics at exit */")
            expire_end = branch([lk.late()], keep, ok)
        e["EXPIRE_END"] = sub(expire_end, e)
        e["RETIRED"] = (f"static struct {S} *{self.p}_retired_{self.i};\n"
                        if lk and lk.at_exit == "freed" else "")
        e["RETIRED_FREE"] = sub(retired_free(lk, S, f"{self.p}_retired_{self.i}", self.free,
                                             f"{self.free}({self.p}_retired_{self.i}->inbox);\n"),
                                e)
        return sub(r"""
/* @p@ sessions (@i@): at most @CAP@ live, opened and closed at random; 1 in
 * @K@ closes is a time-out, handled by @p@_expire_@i@. */
struct @S@ {
   struct @S@ *retired_next;
   unsigned id;
   unsigned long sent;
   char peer[24];
   size_t inbox_size;
   char *inbox;
};

static struct @S@ *@p@_table_@i@[@CAP@];
static unsigned @p@_count_@i@;
static unsigned @p@_next_id_@i@;
static unsigned long @p@_orphaned_@i@;
@RETIRED@
NOINLINE static struct @S@ *@p@_open_@i@(void)
{
   struct @S@ *s = (struct @S@ *)@ALLOC@(sizeof *s);
   memset(s, 0, sizeof *s);
   s->id = ++@p@_next_id_@i@;
   snprintf(s->peer, sizeof s->peer, "10.%u.%u.%u", @i@u, s->id / 256 % 256, s->id % 256);
   s->inbox_size = random_size(@LO@, @HI@);
   s->inbox = (char *)@ALLOC@(s->inbox_size);
   fill_block(s->inbox, s->inbox_size, s->id);
   @p@_table_@i@[@p@_count_@i@++] = s;
   return s;
}

static struct @S@ *@p@_unlink_@i@(unsigned slot)
{
   struct @S@ *s = @p@_table_@i@[slot];
   @p@_count_@i@--;
   @p@_table_@i@[slot] = @p@_table_@i@[@p@_count_@i@];
   @p@_table_@i@[@p@_count_@i@] = NULL;
   return s;
}

NOINLINE static void @p@_close_@i@(unsigned slot)
{
   struct @S@ *s = @p@_unlink_@i@(slot);
   work_sum += digest(s->inbox, s->inbox_size) + s->sent;
   @FREE@(s->inbox);
   @FREE@(s);
}

/* A session whose peer went silent. */
NOINLINE static void @p@_expire_@i@(unsigned slot, unsigned cycle)
{
   struct @S@ *s = @p@_unlink_@i@(slot);
   (void)cycle;
   work_sum += s->sent;
@EXPIRE_END@
}

NOINLINE static void @p@_step_@i@(unsigned cycle)
{
   if (random_below(100) < @P_OPEN@ && @p@_count_@i@ < @CAP@) {
      @p@_open_@i@();
   } else if (@p@_count_@i@ > 0) {
      unsigned slot = random_below(@p@_count_@i@);
      if (random_below(@K@) == 0)
         @p@_expire_@i@(slot, cycle);
      else
         @p@_close_@i@(slot);
   }
   if (@p@_count_@i@ > 0) {
      struct @S@ *s = @p@_table_@i@[random_below(@p@_count_@i@)];
      s->sent += digest(s->inbox, s->inbox_size) & 0xff;
   }
}

static void @p@_shutdown_@i@(void)
{
   while (@p@_count_@i@ > 0)
      @p@_close_@i@(@p@_count_@i@ - 1);
@RETIRED_FREE@
}
""", e)

    def per_request(self):
        return [f"{self.fn('step')}(cycle);"]

    def shutdown(self):
        return [f"{self.fn('shutdown')}();"]

    def stats(self):
        return [f"{self.p}_next_id_{self.i}", f"{self.p}_orphaned_{self.i}"]


# ---- caches: LRU, TTL or random eviction -----------------------------------


class Cache(Component):
    kind = "cache"
    prefixes = ("cache", "resolver_cache", "thumb_cache", "page_cache", "dns_cache",
                "blob_cache", "acl_cache")
    hosts = ("stale_value",)
    trap = True

    def plan(self):
        r = self.rng
        self.policy = r.choice(["lru", "ttl", "random"])
        self.cap = r.int(32, 800)
        self.keys = int(self.cap * r.uniform(1.3, 6.0))
        self.skew = r.choice([1, 1, 2, 3])
        self.lookups = r.int(1, 3)
        self.lo = r.size(32, 1024)
        self.hi = self.lo + r.size(16, 8192)
        self.ttl = r.int(2, max(3, self.prog.cycles // 4))
        if self.policy != "ttl":
            # caches filling: full by half the run (a TTL cache is bounded by
            # its TTL window, at most a quarter of the run)
            draws = self.prog.cycles * self.prog.requests * self.lookups
            half, = distinct_keys(r.fork("fill"), self.keys, self.skew, draws, [draws // 2])
            self.cap = max(8, min(self.cap, half))
        bits = 4
        while (1 << bits) < 2 * self.cap:
            bits += 1
        self.bits = bits
        self.leak_k = 1

    def plan_leak(self, leak):
        r = self.rng
        self.leak_k = r.choice([1, 1, 2, 3])
        leak.shape = "stale values: the eviction frees the entry, not its value"
        leak.functions = [self.fn("load")]
        leak.headline = [self.fn("load"), self.fn("insert")]
        leak.fix_at = self.fn("evict")
        leak.counter = self.counter_name("stale")
        misses = self.active_requests(leak) * self.lookups * (1 - min(0.9, self.cap / self.keys))
        leak.expected = max(0.0, misses - self.cap) / self.leak_k
        which = "every eviction" if self.leak_k == 1 else f"1 eviction in {self.leak_k}"
        leak.about = (f"{which} of the {self.policy} cache frees the entry but "
                      + ("forgets its value" if leak.at_exit == "lost" else
                         "keeps its value on a stale list freed at exit"))

    def describe(self):
        what = {"lru": "LRU", "ttl": f"TTL ({self.ttl} cycles)", "random": "random-eviction"}
        return (f"{self.p}: a {what[self.policy]} cache of {self.cap} entries over "
                f"{self.keys} keys")

    def code(self):
        lk = self.leak
        V, E = f"{self.p}_value_{self.i}", f"{self.p}_entry_{self.i}"
        e = self.env(V=V, E=E, CAP=self.cap, KEYS=self.keys, SKEW=self.skew, LO=self.lo,
                     HI=self.hi, TTL=self.ttl, NB=1 << self.bits, SHIFT=32 - self.bits,
                     LOOKUPS=self.lookups)
        ok = "@FREE@(e->value);"
        if lk is None:
            value_end = indent(ok, 3)
        else:
            if lk.at_exit == "lost":
                keep = "@p@_stale_@i@++; /* the value stays behind */"
            else:
                keep = ("@p@_stale_@i@++;\ne->value->retired_next = @p@_retired_@i@;\n"
                        "@p@_retired_@i@ = e->value; /* readers may still hold it */")
            conds = [f"random_below({self.leak_k}) == 0" if self.leak_k > 1 else None,
                     lk.late()]
            value_end = branch(conds, keep, ok)
        e["VALUE_END"] = sub(value_end, e)
        e["RETIRED"] = (f"static struct {V} *{self.p}_retired_{self.i};\n"
                        if lk and lk.at_exit == "freed" else "")
        e["RETIRED_FREE"] = sub(retired_free(lk, V, f"{self.p}_retired_{self.i}", self.free), e)
        if self.policy == "random":
            e["VICTIM"] = "random_below(@p@_count_@i@)"
        else:
            e["VICTIM"] = "@p@_oldest_@i@->slot"
        e["VICTIM"] = sub(e["VICTIM"], e)
        e["TOUCH"] = sub("""      @p@_list_unlink_@i@(e);
      @p@_list_push_@i@(e);
""", e) if self.policy == "lru" else ""
        code = sub(r"""
/* @p@ (@i@): a cache of @CAP@ values fetched by @p@_load_@i@, over @KEYS@ keys. */
struct @V@ {
   struct @V@ *retired_next;
   unsigned key;
   size_t size;
   char data[];
};

struct @E@ {
   struct @E@ *chain;
   struct @E@ *newer, *older;
   unsigned key, born, slot;
   struct @V@ *value;
};

static struct @E@ *@p@_buckets_@i@[@NB@];
static struct @E@ *@p@_slots_@i@[@CAP@];
static struct @E@ *@p@_newest_@i@, *@p@_oldest_@i@;
static unsigned @p@_count_@i@;
static unsigned long @p@_hits_@i@, @p@_misses_@i@, @p@_stale_@i@;
@RETIRED@
/* Fetches a value from the backend. */
NOINLINE static struct @V@ *@p@_load_@i@(unsigned key)
{
   size_t n = random_size(@LO@, @HI@);
   struct @V@ *v = (struct @V@ *)@ALLOC@(sizeof *v + n);
   v->retired_next = NULL;
   v->key = key;
   v->size = n;
   fill_block(v->data, n, key);
   return v;
}

static struct @E@ **@p@_find_@i@(unsigned key)
{
   struct @E@ **e = &@p@_buckets_@i@[(key * 2654435761u) >> @SHIFT@];
   while (*e != NULL && (*e)->key != key)
      e = &(*e)->chain;
   return e;
}

static void @p@_list_unlink_@i@(struct @E@ *e)
{
   if (e->newer != NULL)
      e->newer->older = e->older;
   else
      @p@_newest_@i@ = e->older;
   if (e->older != NULL)
      e->older->newer = e->newer;
   else
      @p@_oldest_@i@ = e->newer;
}

static void @p@_list_push_@i@(struct @E@ *e)
{
   e->newer = NULL;
   e->older = @p@_newest_@i@;
   if (@p@_newest_@i@ != NULL)
      @p@_newest_@i@->newer = e;
   else
      @p@_oldest_@i@ = e;
   @p@_newest_@i@ = e;
}

NOINLINE static void @p@_evict_@i@(unsigned slot, unsigned cycle)
{
   struct @E@ *e = @p@_slots_@i@[slot];
   struct @E@ **link = @p@_find_@i@(e->key);
   (void)cycle;
   *link = e->chain;
   @p@_list_unlink_@i@(e);
   @p@_count_@i@--;
   if (slot != @p@_count_@i@) {
      @p@_slots_@i@[slot] = @p@_slots_@i@[@p@_count_@i@];
      @p@_slots_@i@[slot]->slot = slot;
   }
   @p@_slots_@i@[@p@_count_@i@] = NULL;
   work_sum += digest(e->value->data, e->value->size);
@VALUE_END@
   @FREE@(e);
}

NOINLINE static void @p@_insert_@i@(unsigned key, unsigned cycle)
{
   if (@p@_count_@i@ == @CAP@)
      @p@_evict_@i@(@VICTIM@, cycle);
   struct @E@ *e = (struct @E@ *)@ALLOC@(sizeof *e);
   e->key = key;
   e->born = cycle;
   e->slot = @p@_count_@i@;
   e->value = @p@_load_@i@(key);
   struct @E@ **bucket = &@p@_buckets_@i@[(key * 2654435761u) >> @SHIFT@];
   e->chain = *bucket;
   *bucket = e;
   @p@_list_push_@i@(e);
   @p@_slots_@i@[@p@_count_@i@++] = e;
}

NOINLINE static void @p@_get_@i@(unsigned key, unsigned cycle)
{
   struct @E@ *e = *@p@_find_@i@(key);
   if (e != NULL) {
      @p@_hits_@i@++;
@TOUCH@      work_sum += digest(e->value->data, e->value->size);
      return;
   }
   @p@_misses_@i@++;
   @p@_insert_@i@(key, cycle);
}

NOINLINE static void @p@_step_@i@(unsigned cycle)
{
   for (unsigned k = 0; k < @LOOKUPS@; k++)
      @p@_get_@i@(skewed_below(@KEYS@, @SKEW@), cycle);
}
""", e)
        if self.policy == "ttl":
            code += sub(r"""
/* Drops the entries older than @TTL@ cycles. */
NOINLINE static void @p@_sweep_@i@(unsigned cycle)
{
   while (@p@_oldest_@i@ != NULL && @p@_oldest_@i@->born + @TTL@ <= cycle)
      @p@_evict_@i@(@p@_oldest_@i@->slot, cycle);
}
""", e)
        code += sub(r"""
static void @p@_shutdown_@i@(void)
{
   while (@p@_count_@i@ > 0) {
      struct @E@ *e = @p@_slots_@i@[--@p@_count_@i@];
      @FREE@(e->value);
      @FREE@(e);
   }
   memset(@p@_buckets_@i@, 0, sizeof @p@_buckets_@i@);
@RETIRED_FREE@
}
""", e)
        return code

    def per_request(self):
        return [f"{self.fn('step')}(cycle);"]

    def per_cycle(self):
        return [f"{self.fn('sweep')}(cycle);"] if self.policy == "ttl" else []

    def shutdown(self):
        return [f"{self.fn('shutdown')}();"]

    def stats(self):
        return [f"{self.p}_hits_{self.i}", f"{self.p}_misses_{self.i}",
                f"{self.p}_stale_{self.i}"]


# ---- object pools -----------------------------------------------------------


class Pool(Component):
    kind = "pool"
    prefixes = ("buffer_pool", "job_pool", "frame_pool", "packet_pool", "conn_pool",
                "block_pool")
    hosts = ("unreturned",)
    trap = True

    def plan(self):
        r = self.rng
        self.obj = r.size(48, 4096)
        self.maxh = r.int(2, 48)
        self.ramp = r.choice([0, int(self.prog.cycles * r.uniform(0.15, 0.6))])
        self.cancel_k = r.int(20, 200)

    def plan_leak(self, leak):
        r = self.rng
        leak.shape = "unreturned: a rare path keeps an object from the pool"
        active = self.active_requests(leak)
        top = max(3, min(200, int(active / 10)))
        self.cancel_k = r.int(min(20, top), top)
        leak.functions = [self.fn("grow")]
        leak.headline = [self.fn("grow"), self.fn("get")]
        leak.fix_at = self.fn("cancel")
        leak.counter = self.counter_name("lost")
        leak.expected = active / self.cancel_k
        leak.about = (f"1 job in {self.cancel_k} is cancelled and {self.fn('cancel')} "
                      + ("does not give its object back" if leak.at_exit == "lost" else
                         "parks its object on a list freed at exit")
                      + "; the pool grows a new one")

    def describe(self):
        ramp = f", traffic ramping up over {self.ramp} cycles" if self.ramp else ""
        return f"{self.p}: a pool of {self.obj}-byte objects, up to {self.maxh} at once{ramp}"

    def code(self):
        lk = self.leak
        O = f"{self.p}_obj_{self.i}"
        e = self.env(O=O, OBJ=self.obj, MAXH=self.maxh, RAMP=self.ramp, K=self.cancel_k)
        ok = "@p@_put_@i@(o);"
        if lk is None:
            end = indent(ok, 3)
        else:
            if lk.at_exit == "lost":
                keep = "@p@_lost_@i@++;\n@p@_in_use_@i@--; /* never given back */"
            else:
                keep = ("@p@_lost_@i@++;\n@p@_in_use_@i@--;\no->retired_next = @p@_retired_@i@;\n"
                        "@p@_retired_@i@ = o; /* parked until exit */")
            end = branch([lk.late()], keep, ok)
        e["CANCEL_END"] = sub(end, e)
        e["RETIRED"] = (f"static struct {O} *{self.p}_retired_{self.i};\n"
                        if lk and lk.at_exit == "freed" else "")
        e["RETIRED_FREE"] = sub(retired_free(lk, O, f"{self.p}_retired_{self.i}", self.free), e)
        e["LIMIT"] = (sub("cycle < @RAMP@ ? 1 + (@MAXH@ - 1) * cycle / @RAMP@ : @MAXH@", e)
                      if self.ramp else str(self.maxh))
        return sub(r"""
/* @p@ (@i@): a pool of objects kept on a free list; a request holds up to
 * @MAXH@ at once. */
struct @O@ {
   struct @O@ *next_free;
   struct @O@ *retired_next;
   unsigned id;
   unsigned uses;
   char body[@OBJ@];
};

static struct @O@ *@p@_free_@i@;
static unsigned long @p@_made_@i@, @p@_in_use_@i@, @p@_cancelled_@i@, @p@_lost_@i@;
@RETIRED@
NOINLINE static struct @O@ *@p@_grow_@i@(void)
{
   struct @O@ *o = (struct @O@ *)@ALLOC@(sizeof *o);
   o->next_free = NULL;
   o->retired_next = NULL;
   o->id = (unsigned)++@p@_made_@i@;
   o->uses = 0;
   fill_block(o->body, sizeof o->body, o->id);
   return o;
}

NOINLINE static struct @O@ *@p@_get_@i@(void)
{
   struct @O@ *o = @p@_free_@i@;
   if (o != NULL)
      @p@_free_@i@ = o->next_free;
   else
      o = @p@_grow_@i@();
   @p@_in_use_@i@++;
   o->uses++;
   return o;
}

static void @p@_put_@i@(struct @O@ *o)
{
   o->next_free = @p@_free_@i@;
   @p@_free_@i@ = o;
   @p@_in_use_@i@--;
}

/* A job abandoned half-way. */
NOINLINE static void @p@_cancel_@i@(struct @O@ *o, unsigned cycle)
{
   (void)cycle;
   @p@_cancelled_@i@++;
@CANCEL_END@
}

NOINLINE static void @p@_step_@i@(unsigned cycle)
{
   struct @O@ *held[@MAXH@];
   unsigned limit = @LIMIT@;
   unsigned n = 1 + random_below(limit);
   for (unsigned k = 0; k < n; k++) {
      held[k] = @p@_get_@i@();
      held[k]->body[k % sizeof held[k]->body] = (char)k;
      work_sum += digest(held[k]->body, sizeof held[k]->body);
   }
   for (unsigned k = 0; k < n; k++) {
      if (k == 0 && random_below(@K@) == 0)
         @p@_cancel_@i@(held[k], cycle);
      else
         @p@_put_@i@(held[k]);
   }
}

static void @p@_shutdown_@i@(void)
{
   while (@p@_free_@i@ != NULL) {
      struct @O@ *next = @p@_free_@i@->next_free;
      @FREE@(@p@_free_@i@);
      @p@_free_@i@ = next;
   }
@RETIRED_FREE@
}
""", e)

    def per_request(self):
        return [f"{self.fn('step')}(cycle);"]

    def shutdown(self):
        return [f"{self.fn('shutdown')}();"]

    def stats(self):
        return [f"{self.p}_made_{self.i}", f"{self.p}_cancelled_{self.i}",
                f"{self.p}_lost_{self.i}"]


# ---- arenas reset per request ----------------------------------------------


class Arena(Component):
    kind = "arena"
    prefixes = ("arena", "scratch", "req_arena", "parse_arena", "frame_arena")
    hosts = ("large_dropped",)
    trap = False

    def plan(self):
        r = self.rng
        self.chunk = r.choice([4096, 8192, 16384, 32768, 65536])
        self.min_allocs = r.int(2, 12)
        self.spread = r.int(1, 30)
        self.slo = r.size(8, 64)
        self.shi = self.slo + r.size(8, 512)
        self.large_k = r.int(10, 120)
        self.llo = self.chunk // 4 + 16
        self.lhi = self.llo + r.size(1024, 65536)
        self.leak_k = 1

    def plan_leak(self, leak):
        r = self.rng
        active = self.active_requests(leak)
        self.leak_k = r.choice([1, 1, 2])
        top = max(3, min(150, int(active / (10 * self.leak_k))))
        self.large_k = r.int(min(10, top), top)
        leak.shape = "lumpy: large blocks of random sizes, now and then"
        leak.functions = [self.fn("alloc_large")]
        # alloc is the arena's allocator, a wrapper: its caller is step
        leak.headline = [self.fn("alloc_large"), self.fn("alloc"), self.fn("step")]
        leak.fix_at = self.fn("reset")
        leak.counter = self.counter_name("dropped")
        leak.expected = active / self.large_k / self.leak_k
        which = "the large blocks" if self.leak_k == 1 else \
            f"the large blocks, 1 reset in {self.leak_k},"
        leak.about = (f"1 request in {self.large_k} asks the arena for a large block "
                      f"({self.llo}-{self.lhi} bytes); {self.fn('reset')} "
                      + (f"drops {which} without freeing them" if leak.at_exit == "lost" else
                         f"moves {which} to a list freed at exit"))

    def describe(self):
        return (f"{self.p}: an arena of {self.chunk}-byte chunks reset after each request, "
                f"large blocks 1 request in {self.large_k}")

    def code(self):
        lk = self.leak
        C, B = f"{self.p}_chunk_{self.i}", f"{self.p}_large_{self.i}"
        e = self.env(C=C, B=B, CHUNK=self.chunk, MIN=self.min_allocs, SPREAD=self.spread,
                     SLO=self.slo, SHI=self.shi, LARGE_K=self.large_k, LLO=self.llo,
                     LHI=self.lhi)
        ok = """while (@p@_big_@i@ != NULL) {
   struct @B@ *next = @p@_big_@i@->next;
   @FREE@(@p@_big_@i@);
   @p@_big_@i@ = next;
}"""
        if lk is None:
            end = indent(ok, 3)
        else:
            if lk.at_exit == "lost":
                keep = ("for (struct @B@ *b = @p@_big_@i@; b != NULL; b = b->next)\n"
                        "   @p@_dropped_@i@++;\n@p@_big_@i@ = NULL;")
            else:
                keep = """while (@p@_big_@i@ != NULL) {
   struct @B@ *next = @p@_big_@i@->next;
   @p@_dropped_@i@++;
   @p@_big_@i@->retired_next = @p@_retired_@i@;
   @p@_retired_@i@ = @p@_big_@i@;
   @p@_big_@i@ = next;
}"""
            conds = [f"random_below({self.leak_k}) == 0" if self.leak_k > 1 else None,
                     lk.late()]
            end = branch(conds, keep, ok)
        e["BIG_END"] = sub(end, e)
        e["RETIRED"] = (f"static struct {B} *{self.p}_retired_{self.i};\n"
                        if lk and lk.at_exit == "freed" else "")
        e["RETIRED_FREE"] = sub(retired_free(lk, B, f"{self.p}_retired_{self.i}", self.free), e)
        return sub(r"""
/* @p@ (@i@): a request's memory, carved from @CHUNK@-byte chunks and given
 * back at once by @p@_reset_@i@; blocks over a quarter chunk are allocated
 * apart. */
struct @C@ {
   struct @C@ *next;
   size_t size, used;
   char mem[];
};

struct @B@ {
   struct @B@ *next;
   struct @B@ *retired_next;
   size_t size;
   char data[];
};

static struct @C@ *@p@_chunks_@i@;
static struct @B@ *@p@_big_@i@;
static unsigned long @p@_large_count_@i@, @p@_dropped_@i@;
@RETIRED@
NOINLINE static struct @C@ *@p@_chunk_new_@i@(void)
{
   struct @C@ *c = (struct @C@ *)@ALLOC@(sizeof *c + @CHUNK@);
   c->next = @p@_chunks_@i@;
   c->size = @CHUNK@;
   c->used = 0;
   fill_block(c->mem, 64, @i@);
   @p@_chunks_@i@ = c;
   return c;
}

NOINLINE static void *@p@_alloc_large_@i@(size_t n)
{
   struct @B@ *b = (struct @B@ *)@ALLOC@(sizeof *b + n);
   b->next = @p@_big_@i@;
   b->retired_next = NULL;
   b->size = n;
   fill_block(b->data, n, (unsigned)n);
   @p@_big_@i@ = b;
   @p@_large_count_@i@++;
   return b->data;
}

NOINLINE static void *@p@_alloc_@i@(size_t n)
{
   n = (n + 15) & ~(size_t)15;
   if (n > @CHUNK@ / 4)
      return @p@_alloc_large_@i@(n);
   struct @C@ *c = @p@_chunks_@i@;
   if (c == NULL || c->used + n > c->size)
      c = @p@_chunk_new_@i@();
   void *p = c->mem + c->used;
   c->used += n;
   return p;
}

NOINLINE static void @p@_reset_@i@(unsigned cycle)
{
   struct @C@ *c = @p@_chunks_@i@;
   (void)cycle;
   while (c != NULL && c->next != NULL) {
      struct @C@ *next = c->next;
      @FREE@(c);
      c = next;
   }
   if (c != NULL)
      c->used = 0;
   @p@_chunks_@i@ = c;
@BIG_END@
}

NOINLINE static void @p@_step_@i@(unsigned cycle)
{
   unsigned n = @MIN@ + random_below(@SPREAD@);
   for (unsigned k = 0; k < n; k++) {
      size_t size = random_size(@SLO@, @SHI@);
      char *p = (char *)@p@_alloc_@i@(size);
      memset(p, (int)k, size < 32 ? size : 32);
      work_sum += (unsigned char)p[0];
   }
   if (random_below(@LARGE_K@) == 0) {
      size_t size = random_size(@LLO@, @LHI@);
      char *p = (char *)@p@_alloc_@i@(size);
      work_sum += digest(p, size);
   }
   @p@_reset_@i@(cycle);
}

static void @p@_shutdown_@i@(void)
{
   while (@p@_chunks_@i@ != NULL) {
      struct @C@ *next = @p@_chunks_@i@->next;
      @FREE@(@p@_chunks_@i@);
      @p@_chunks_@i@ = next;
   }
@RETIRED_FREE@
}
""", e)

    def per_request(self):
        return [f"{self.fn('step')}(cycle);"]

    def shutdown(self):
        return [f"{self.fn('shutdown')}();"]

    def stats(self):
        return [f"{self.p}_large_count_{self.i}", f"{self.p}_dropped_{self.i}"]


# ---- a table over a fixed key space ----------------------------------------


class KeyTable(Component):
    kind = "table"
    prefixes = ("route_table", "symbol_table", "user_index", "tag_index", "metric_names",
                "host_table")
    words = ("route", "sym", "user", "tag", "metric", "host")
    hosts = ("unbounded_keys",)
    trap = True

    def plan(self):
        r = self.rng
        self.keys = r.int(150, 3000)
        self.power = r.choice([1, 2, 2, 3, 4])
        self.lookups = r.int(1, 3)
        self.payload = r.size(8, 256)
        self.word = self.words[self.prefixes.index(self.p)] if self.p in self.prefixes else "key"
        self.free_at_exit = r.chance(0.6)
        # filled early: 90 % of the keys seen by 40 % of the run
        draws = self.prog.cycles * self.prog.requests * self.lookups
        sim = r.fork("fill")
        while self.keys > 20:
            early, end = distinct_keys(sim, self.keys, self.power, draws,
                                       [int(0.4 * draws), draws])
            if early >= 0.9 * end:
                break
            self.keys = int(self.keys * 0.7)
        bits = 4
        while (1 << bits) < self.keys // 2:
            bits += 1
        self.nb = 1 << bits
        self.leak_k = 0

    def plan_leak(self, leak):
        r = self.rng
        lookups = self.active_requests(leak) * self.lookups
        choices = [k for k in (1, 2, 3, 5, 10, 20, 50) if lookups / k >= 15] or [1]
        self.leak_k = r.choice(choices)
        self.free_at_exit = leak.at_exit == "freed"
        leak.shape = "unbounded keys: a request id in the key by mistake"
        leak.functions = [self.fn("intern")]
        leak.headline = [self.fn("intern"), self.fn("note")]
        leak.fix_at = self.fn("note")
        leak.counter = self.counter_name("unique")
        leak.expected = lookups / self.leak_k
        which = "every lookup" if self.leak_k == 1 else f"1 lookup in {self.leak_k}"
        leak.about = (f"{which} builds its key with the request id in it, so the table "
                      f"gets a new entry each time; the table is "
                      + ("freed at exit" if self.free_at_exit else "still there at exit"))

    def describe(self):
        return (f"{self.p}: a table over {self.keys} keys (skew {self.power}), filled early, "
                f"a thin tail of new keys")

    def code(self):
        lk = self.leak
        N = f"{self.p}_node_{self.i}"
        e = self.env(N=N, KEYS=self.keys, POWER=self.power, PAY=self.payload, NB=self.nb,
                     WORD=self.word, LOOKUPS=self.lookups)
        normal = 'snprintf(name, sizeof name, "@WORD@/%u", key);'
        if lk is None:
            name = indent(normal, 3)
        else:
            wrong = ('snprintf(name, sizeof name, "@WORD@/%u?req=%u", key, req);\n'
                     '@p@_unique_@i@++;')
            conds = [f"random_below({self.leak_k}) == 0" if self.leak_k > 1 else None,
                     lk.late()]
            name = branch(conds, wrong, normal)
        e["NAME"] = sub(name, e)
        if self.free_at_exit:
            drop = ""
            if lk is not None:
                drop = "#ifdef GEN_SELF_CHECK\n   memset(@p@_buckets_@i@, 0, sizeof @p@_buckets_@i@);\n#endif\n"
            shutdown = sub(drop + r"""   for (unsigned b = 0; b < @NB@; b++) {
      while (@p@_buckets_@i@[b] != NULL) {
         struct @N@ *next = @p@_buckets_@i@[b]->chain;
         @FREE@(@p@_buckets_@i@[b]);
         @p@_buckets_@i@[b] = next;
      }
   }""", e)
        else:
            shutdown = "   /* kept to exit */"
        e["SHUTDOWN"] = shutdown
        return sub(r"""
/* @p@ (@i@): counters by @WORD@, over @KEYS@ keys of skewed popularity. */
struct @N@ {
   struct @N@ *chain;
   unsigned key;
   unsigned long hits;
   char payload[@PAY@];
   char name[];
};

static struct @N@ *@p@_buckets_@i@[@NB@];
static unsigned long @p@_entries_@i@, @p@_unique_@i@;

NOINLINE static struct @N@ *@p@_intern_@i@(const char *name, unsigned key, unsigned h)
{
   size_t len = strlen(name);
   struct @N@ *e = (struct @N@ *)@ALLOC@(sizeof *e + len + 1);
   e->key = key;
   e->hits = 0;
   memset(e->payload, 0, sizeof e->payload);
   memcpy(e->name, name, len + 1);
   e->chain = @p@_buckets_@i@[h];
   @p@_buckets_@i@[h] = e;
   @p@_entries_@i@++;
   return e;
}

NOINLINE static void @p@_note_@i@(unsigned cycle, unsigned req)
{
   char name[64];
   unsigned key = skewed_below(@KEYS@, @POWER@);
   (void)cycle;
@NAME@
   unsigned h = hash_name(name) & (@NB@ - 1);
   struct @N@ *e = @p@_buckets_@i@[h];
   while (e != NULL && strcmp(e->name, name) != 0)
      e = e->chain;
   if (e == NULL)
      e = @p@_intern_@i@(name, key, h);
   e->hits++;
   e->payload[req % sizeof e->payload]++;
}

static void @p@_shutdown_@i@(void)
{
@SHUTDOWN@
}
""", e)

    def per_request(self):
        return [f"{self.fn('note')}(cycle, req);"] * self.lookups

    def shutdown(self):
        return [f"{self.fn('shutdown')}();"]

    def stats(self):
        return [f"{self.p}_entries_{self.i}", f"{self.p}_unique_{self.i}"]


# ---- a table loaded at start-up ---------------------------------------------


class StartupTable(Component):
    kind = "startup"
    prefixes = ("config", "dictionary", "geoip", "mime_table", "schema", "catalog")
    trap = True

    def plan(self):
        r = self.rng
        self.rows = r.int(200, 8000)
        self.tlo = r.size(8, 64)
        self.thi = self.tlo + r.size(8, 400)
        self.lazy = r.choice([0, 0, r.int(2, max(2, self.prog.cycles // 8))])
        self.copy_k = r.int(1, 8)
        self.free_at_exit = r.chance(0.6)

    def describe(self):
        when = (f"loaded over the first {self.lazy} cycles" if self.lazy
                else "loaded at start-up")
        kept = "freed at exit" if self.free_at_exit else "kept to exit"
        return f"{self.p}: a table of {self.rows} rows {when}, {kept}"

    def code(self):
        R = f"{self.p}_row_{self.i}"
        e = self.env(R=R, ROWS=self.rows, TLO=self.tlo, THI=self.thi, K=self.copy_k)
        e["SHUTDOWN"] = sub(r"""   for (unsigned k = 0; k < @p@_loaded_@i@; k++)
      @FREE@(@p@_rows_@i@[k].text);
   @FREE@(@p@_rows_@i@);
   @p@_rows_@i@ = NULL;""" if self.free_at_exit else "   /* kept to exit */", e)
        return sub(r"""
/* @p@ (@i@): @ROWS@ rows read at start-up and kept. */
struct @R@ {
   unsigned id;
   unsigned weight;
   size_t len;
   char *text;
};

static struct @R@ *@p@_rows_@i@;
static unsigned @p@_loaded_@i@;

NOINLINE static char *@p@_text_@i@(unsigned id, size_t n)
{
   char *t = (char *)@ALLOC@(n);
   fill_block(t, n, id);
   t[n - 1] = '\0';
   return t;
}

NOINLINE static void @p@_load_@i@(unsigned upto)
{
   if (@p@_rows_@i@ == NULL) {
      @p@_rows_@i@ = (struct @R@ *)@ALLOC@(@ROWS@ * sizeof *@p@_rows_@i@);
      memset(@p@_rows_@i@, 0, @ROWS@ * sizeof *@p@_rows_@i@);
   }
   while (@p@_loaded_@i@ < upto) {
      struct @R@ *r = &@p@_rows_@i@[@p@_loaded_@i@];
      r->id = @p@_loaded_@i@;
      r->weight = random_below(100);
      r->len = random_size(@TLO@, @THI@);
      r->text = @p@_text_@i@(r->id, r->len);
      @p@_loaded_@i@++;
   }
}

NOINLINE static void @p@_lookup_@i@(void)
{
   if (@p@_loaded_@i@ == 0)
      return;
   struct @R@ *r = &@p@_rows_@i@[random_below(@p@_loaded_@i@)];
   if (random_below(@K@) == 0) {
      char *copy = (char *)@ALLOC@(r->len);
      memcpy(copy, r->text, r->len);
      work_sum += digest(copy, r->len);
      @FREE@(copy);
   } else {
      work_sum += digest(r->text, r->len) + r->weight;
   }
}

static void @p@_shutdown_@i@(void)
{
@SHUTDOWN@
}
""", e)

    def startup(self):
        return [] if self.lazy else [f"{self.fn('load')}({self.rows});"]

    def per_cycle(self):
        if not self.lazy:
            return []
        return [f"if (cycle < {self.lazy})\n   {self.fn('load')}((cycle + 1) * {self.rows}u / "
                f"{self.lazy});"]

    def per_request(self):
        return [f"{self.fn('lookup')}();"]

    def shutdown(self):
        return [f"{self.fn('shutdown')}();"]

    def stats(self):
        return [f"{self.p}_loaded_{self.i}"]


# ---- batch buffers grown by realloc ----------------------------------------


class Batch(Component):
    kind = "batch"
    prefixes = ("batch", "journal", "upload", "log_batch", "spool")
    hosts = ("dropped_batch",)
    trap = False

    def plan(self):
        r = self.rng
        self.rlo = r.size(16, 256)
        self.rhi = self.rlo + r.size(8, 512)
        self.init = r.choice([64, 256, 1024, 4096])
        self.every = r.int(4, 200)
        self.fail_k = 0

    def plan_leak(self, leak):
        r = self.rng
        active = self.active_requests(leak)
        self.every = r.int(4, max(4, min(120, int(active / 40))))
        flushes = active / self.every
        choices = [k for k in (2, 3, 5, 10, 20, 40) if flushes / k >= 8] or [1]
        self.fail_k = r.choice(choices)
        leak.shape = "dropped batch: a failed write forgets the buffer"
        leak.functions = [self.fn("append")]
        leak.headline = [self.fn("append")]
        leak.fix_at = self.fn("flush")
        leak.counter = self.counter_name("failed")
        leak.expected = flushes / self.fail_k
        leak.about = (f"a batch of {self.every} records is written out by "
                      f"{self.fn('flush')}; 1 write in {self.fail_k} fails, and the "
                      "failed batch's buffer (grown by realloc) is dropped")

    def describe(self):
        return (f"{self.p}: records appended to a buffer grown by realloc, "
                f"written out every {self.every} requests")

    def code(self):
        lk = self.leak
        e = self.env(RLO=self.rlo, RHI=self.rhi, INIT=self.init, EVERY=self.every)
        ok = "@FREE@(@p@_buf_@i@);"
        if lk is None:
            end = indent(ok, 3)
        else:
            keep = "@p@_failed_@i@++; /* the write failed: the batch is given up */"
            conds = [f"random_below({self.fail_k}) == 0" if self.fail_k > 1 else None,
                     lk.late()]
            end = branch(conds, keep, ok)
        e["FLUSH_END"] = sub(end, e)
        return sub(r"""
/* @p@ (@i@): records gathered in one buffer, written out every @EVERY@. */
static char *@p@_buf_@i@;
static size_t @p@_len_@i@, @p@_cap_@i@;
static unsigned @p@_records_@i@, @p@_pending_@i@;
static unsigned long @p@_flushes_@i@, @p@_failed_@i@;

NOINLINE static void @p@_append_@i@(const char *rec, size_t n)
{
   if (@p@_len_@i@ + n > @p@_cap_@i@) {
      size_t cap = @p@_cap_@i@ ? @p@_cap_@i@ * 2 : @INIT@;
      while (cap < @p@_len_@i@ + n)
         cap *= 2;
      @p@_buf_@i@ = (char *)@REALLOC@(@p@_buf_@i@, cap);
      @p@_cap_@i@ = cap;
   }
   memcpy(@p@_buf_@i@ + @p@_len_@i@, rec, n);
   @p@_len_@i@ += n;
   @p@_records_@i@++;
}

NOINLINE static void @p@_flush_@i@(unsigned cycle)
{
   (void)cycle;
   if (@p@_buf_@i@ == NULL)
      return;
   work_sum += digest(@p@_buf_@i@, @p@_len_@i@) + @p@_records_@i@;
   @p@_flushes_@i@++;
@FLUSH_END@
   @p@_buf_@i@ = NULL;
   @p@_len_@i@ = @p@_cap_@i@ = 0;
   @p@_records_@i@ = 0;
}

NOINLINE static void @p@_step_@i@(unsigned cycle, unsigned req)
{
   char rec[@RHI@];
   size_t n = random_size(@RLO@, @RHI@);
   memset(rec, 'a' + (int)(req % 26), n);
   @p@_append_@i@(rec, n);
   if (++@p@_pending_@i@ == @EVERY@) {
      @p@_pending_@i@ = 0;
      @p@_flush_@i@(cycle);
   }
}

static void @p@_shutdown_@i@(void)
{
   @FREE@(@p@_buf_@i@);
   @p@_buf_@i@ = NULL;
}
""", e)

    def per_request(self):
        return [f"{self.fn('step')}(cycle, req);"]

    def shutdown(self):
        return [f"{self.fn('shutdown')}();"]

    def stats(self):
        return [f"{self.p}_flushes_{self.i}", f"{self.p}_failed_{self.i}"]


# ---- containers grown by copy (vector doubling) ------------------------------


class Vector(Component):
    kind = "vector"
    prefixes = ("results", "samples", "events", "hits", "rows", "points")
    hosts = ("old_array",)
    trap = True

    def plan(self):
        r = self.rng
        self.mode = r.choice(["release", "reuse", "window", "run"])
        self.tag = r.size(4, 120)
        self.init = r.choice([4, 8, 16, 64])
        self.push_k = r.int(1, 3)
        pushes = self.prog.cycles * self.prog.requests * (1 + self.push_k) // 2
        self.window = r.choice([256, 512, 1024, 4096])
        while self.window > 64 and self.window > pushes // 2:
            self.window //= 2
        if self.mode == "run":
            if self.prog.language == "C++":     # std::vector grows inside push
                self.growth = {"functions": [self.fn("push")], "headline": [self.fn("push")]}
            else:
                self.growth = {"functions": [self.fn("grow")],
                               "headline": [self.fn("grow"), self.fn("push")]}

    def plan_leak(self, leak):
        self.mode = "release"
        self.growth = None
        leak.shape = "old arrays: the copy that grows the array keeps the old one"
        leak.functions = [self.fn("grow")]
        leak.headline = [self.fn("grow"), self.fn("push")]
        leak.fix_at = self.fn("grow")
        leak.counter = self.counter_name("old_kept")
        per_cycle = self.prog.requests * (1 + self.push_k) / 2.0
        doublings = 0
        while self.init * (1 << doublings) < per_cycle:
            doublings += 1
        leak.expected = (self.prog.cycles - leak.start_cycle) * doublings
        leak.about = (f"{self.fn('grow')} copies the array into one twice as large and "
                      "does not free the old one; the array is freed after each cycle")

    def describe(self):
        what = {"release": "released after each cycle",
                "reuse": "emptied after each cycle, its capacity kept",
                "window": f"a sliding window of at most {self.window}",
                "run": "kept for the whole run, for a final pass (growth)"}
        return f"{self.p}: an array grown by copy (doubling), {what[self.mode]}"

    def code(self):
        lk = self.leak
        T = f"{self.p}_item_{self.i}"
        e = self.env(T=T, TAG=self.tag, INIT=self.init, K=self.push_k, WINDOW=self.window)
        ok = "@FREE@(@p@_items_@i@);"
        if lk is None:
            end = indent(ok, 3)
        else:
            keep = "if (@p@_items_@i@ != NULL)\n   @p@_old_kept_@i@++;"
            end = branch([lk.late()], keep, ok)
        e["GROW_END"] = sub(end, e)
        code = sub(r"""
/* @p@ (@i@): an array grown by copy, twice as large each time. */
struct @T@ {
   unsigned id;
   unsigned cycle;
   unsigned long score;
   char tag[@TAG@];
};

static struct @T@ *@p@_items_@i@;
static size_t @p@_n_@i@, @p@_cap_@i@;
static unsigned long @p@_old_kept_@i@;

NOINLINE static void @p@_grow_@i@(unsigned cycle)
{
   size_t cap = @p@_cap_@i@ ? @p@_cap_@i@ * 2 : @INIT@;
   struct @T@ *items = (struct @T@ *)@ALLOC@(cap * sizeof *items);
   (void)cycle;
   if (@p@_n_@i@ > 0)
      memcpy(items, @p@_items_@i@, @p@_n_@i@ * sizeof *items);
@GROW_END@
   @p@_items_@i@ = items;
   @p@_cap_@i@ = cap;
   last_block = items;
}

NOINLINE static void @p@_push_@i@(unsigned id, unsigned cycle)
{
   if (@p@_n_@i@ == @p@_cap_@i@)
      @p@_grow_@i@(cycle);
   struct @T@ *t = &@p@_items_@i@[@p@_n_@i@++];
   t->id = id;
   t->cycle = cycle;
   t->score = next_random();
   memset(t->tag, 'a' + (int)(id % 26), sizeof t->tag);
}

NOINLINE static void @p@_step_@i@(unsigned cycle, unsigned req)
{
   unsigned n = 1 + random_below(@K@);
   for (unsigned k = 0; k < n; k++)
      @p@_push_@i@(req * 4 + k, cycle);
}
""", e)
        if self.mode == "window":
            code += sub(r"""
NOINLINE static void @p@_trim_@i@(void)
{
   if (@p@_n_@i@ < @WINDOW@)
      return;
   size_t keep = @p@_n_@i@ / 2;
   memmove(@p@_items_@i@, @p@_items_@i@ + (@p@_n_@i@ - keep), keep * sizeof *@p@_items_@i@);
   @p@_n_@i@ = keep;
}
""", e)
        code += sub(r"""
NOINLINE static void @p@_drain_@i@(int release)
{
   for (size_t k = 0; k < @p@_n_@i@; k++)
      work_sum += @p@_items_@i@[k].score & 0xff;
   @p@_n_@i@ = 0;
   if (release) {
      @FREE@(@p@_items_@i@);
      @p@_items_@i@ = NULL;
      @p@_cap_@i@ = 0;
   }
}
""", e)
        return code

    def per_request(self):
        out = [f"{self.fn('step')}(cycle, req);"]
        if self.mode == "window":
            out.append(f"{self.fn('trim')}();")
        return out

    def per_cycle(self):
        if self.mode == "release":
            return [f"{self.fn('drain')}(1);"]
        if self.mode == "reuse":
            return [f"{self.fn('drain')}(0);"]
        return []

    def shutdown(self):
        return [f"{self.fn('drain')}(1);"]

    def stats(self):
        if self.prog.language == "C++" and self.leak is None:
            return [f"{self.p}_items_{self.i}.capacity()"]
        return [f"{self.p}_cap_{self.i}", f"{self.p}_old_kept_{self.i}"]


# ---- a request handler with a rare error path -------------------------------


class Errors(Component):
    kind = "errors"
    prefixes = ("validator", "gateway", "frontend", "api", "handler", "dispatcher")
    hosts = ("error_reply", "early_return")

    def plan(self):
        r = self.rng
        self.err_k = r.int(20, 200)
        self.rlo = r.size(64, 1024)
        self.rhi = self.rlo + r.size(64, 8192)
        self.elo = r.size(64, 512)
        self.ehi = self.elo + r.size(256, 16384)
        self.mode = "separate"

    def plan_leak(self, leak):
        r = self.rng
        active = self.active_requests(leak)
        if leak.shape_hint == "early_return":
            self.mode = "early_return"
            top = max(3, min(100, int(active / 12)))
            self.err_k = r.int(min(3, top), top)
            leak.shape = "shared site: the early return of an error forgets its reply"
            leak.functions = [self.fn("reply_new")]
            leak.headline = [self.fn("reply_new"), self.fn("handle")]
            leak.fix_at = self.fn("handle")
            leak.about = (f"1 request in {self.err_k} fails validation after its reply is "
                          f"made; {self.fn('handle')} returns early "
                          + ("without freeing it" if leak.at_exit == "lost" else
                             "and keeps it on a list of recent errors freed at exit")
                          + " (the site of every reply)")
        else:
            top = max(3, min(200, int(active / 10)))
            self.err_k = r.int(min(20, top), top)
            leak.shape = "lumpy: a rare error path at random sizes"
            leak.functions = [self.fn("error_reply")]
            leak.headline = [self.fn("error_reply"), self.fn("reject")]
            leak.fix_at = self.fn("reject")
            leak.about = (f"1 request in {self.err_k} is rejected; {self.fn('reject')} sends "
                          f"an error reply of {self.elo}-{self.ehi} bytes "
                          + ("and never frees it" if leak.at_exit == "lost" else
                             "and keeps it on a list of recent errors freed at exit"))
        leak.counter = self.counter_name("kept")
        leak.expected = active / self.err_k

    def describe(self):
        if self.mode == "early_return":
            return f"{self.p}: replies of {self.rlo}-{self.rhi} bytes, 1 request in {self.err_k} invalid"
        return (f"{self.p}: replies of {self.rlo}-{self.rhi} bytes, 1 request in "
                f"{self.err_k} rejected with an error reply of {self.elo}-{self.ehi} bytes")

    def code(self):
        lk = self.leak
        X = f"{self.p}_reply_{self.i}"
        e = self.env(X=X, K=self.err_k, RLO=self.rlo, RHI=self.rhi, ELO=self.elo,
                     EHI=self.ehi)
        if lk is None:
            keep = None
        elif lk.at_exit == "lost":
            keep = "@p@_kept_@i@++;"
        else:
            keep = ("@p@_kept_@i@++;\nx->retired_next = @p@_retired_@i@;\n"
                    "@p@_retired_@i@ = x; /* the recent errors, for the status page */")
        ok = "@FREE@(x);"
        end = indent(ok, 3) if keep is None else branch([lk.late()], keep, ok)
        e["END"] = sub(end, e)
        e["RETIRED"] = (f"static struct {X} *{self.p}_retired_{self.i};\n"
                        if lk and lk.at_exit == "freed" else "")
        e["RETIRED_FREE"] = sub(retired_free(lk, X, f"{self.p}_retired_{self.i}", self.free), e)
        code = sub(r"""
/* @p@ (@i@): answers each request; about 1 in @K@ is invalid. */
struct @X@ {
   struct @X@ *retired_next;
   size_t size;
   char text[];
};

static unsigned long @p@_served_@i@, @p@_rejected_@i@, @p@_kept_@i@;
@RETIRED@
NOINLINE static struct @X@ *@p@_reply_new_@i@(unsigned req, size_t n)
{
   struct @X@ *x = (struct @X@ *)@ALLOC@(sizeof *x + n);
   x->retired_next = NULL;
   x->size = n;
   fill_block(x->text, n, req);
   snprintf(x->text, n, "HTTP/1.1 200 OK\r\nX-Request: %u\r\n\r\n", req);
   return x;
}
""", e)
        if self.mode == "separate":
            code += sub(r"""
NOINLINE static struct @X@ *@p@_error_reply_@i@(unsigned req, size_t n)
{
   struct @X@ *x = (struct @X@ *)@ALLOC@(sizeof *x + n);
   x->retired_next = NULL;
   x->size = n;
   fill_block(x->text, n, req);
   snprintf(x->text, n, "HTTP/1.1 400 Bad Request\r\nX-Request: %u\r\n\r\n", req);
   return x;
}

NOINLINE static int @p@_reject_@i@(unsigned cycle, unsigned req)
{
   struct @X@ *x = @p@_error_reply_@i@(req, random_size(@ELO@, @EHI@));
   (void)cycle;
   @p@_rejected_@i@++;
   work_sum += digest(x->text, x->size);
@END@
   return -1;
}

NOINLINE static int @p@_handle_@i@(unsigned cycle, unsigned req)
{
   if (random_below(@K@) == 0)
      return @p@_reject_@i@(cycle, req);
   struct @X@ *x = @p@_reply_new_@i@(req, random_size(@RLO@, @RHI@));
   work_sum += digest(x->text, x->size);
   @p@_served_@i@++;
   @FREE@(x);
   return 0;
}
""", e)
        else:
            code += sub(r"""
NOINLINE static int @p@_handle_@i@(unsigned cycle, unsigned req)
{
   struct @X@ *x = @p@_reply_new_@i@(req, random_size(@RLO@, @RHI@));
   (void)cycle;
   if (random_below(@K@) == 0) {
      @p@_rejected_@i@++;
      snprintf(x->text, x->size, "HTTP/1.1 400 Bad Request\r\nX-Request: %u\r\n\r\n", req);
      work_sum += digest(x->text, x->size);
@END@
      return -1;
   }
   work_sum += digest(x->text, x->size);
   @p@_served_@i@++;
   @FREE@(x);
   return 0;
}
""", dict(e, END=indent(e["END"], 3)))
        code += sub(r"""
static void @p@_shutdown_@i@(void)
{
@RETIRED_FREE@
}
""", dict(e, RETIRED_FREE=e["RETIRED_FREE"] or "   /* nothing kept */"))
        return code

    def per_request(self):
        return [f"{self.fn('handle')}(cycle, req);"]

    def shutdown(self):
        return [f"{self.fn('shutdown')}();"]

    def stats(self):
        return [f"{self.p}_served_{self.i}", f"{self.p}_rejected_{self.i}",
                f"{self.p}_kept_{self.i}"]


# ---- outgoing messages, some of which are retried ---------------------------


class Messages(Component):
    kind = "messages"
    prefixes = ("outbox", "notifier", "mailer", "publisher", "sender")
    hosts = ("retry",)

    def plan(self):
        r = self.rng
        self.per = r.int(1, 4)
        self.lo = r.size(32, 512)
        self.hi = self.lo + r.size(16, 2048)
        self.retry_k = r.int(5, 60)

    def plan_leak(self, leak):
        r = self.rng
        msgs = self.active_requests(leak) * (1 + self.per) / 2.0
        choices = [k for k in (3, 5, 8, 10, 20, 30, 50) if msgs / k >= 15] or [2]
        self.retry_k = r.choice(choices)
        leak.shape = "shared site: messages to retry, made where every message is made"
        leak.functions = [self.fn("message_new")]
        leak.headline = [self.fn("message_new"), self.fn("enqueue")]
        leak.fix_at = self.fn("send")
        leak.counter = self.counter_name("retries")
        leak.expected = msgs / self.retry_k
        leak.about = (f"1 message in {self.retry_k} needs a retry: {self.fn('send')} "
                      + ("drops it without freeing it" if leak.at_exit == "lost" else
                         "puts it on a retry queue nobody drains, freed at exit"))

    def describe(self):
        n = f"1 to {self.per} messages" if self.per > 1 else "a message"
        return (f"{self.p}: {n} of {self.lo}-{self.hi} bytes a request, 1 in "
                f"{self.retry_k} retried")

    def code(self):
        lk = self.leak
        M = f"{self.p}_msg_{self.i}"
        e = self.env(M=M, PER=self.per, LO=self.lo, HI=self.hi, K=self.retry_k)
        ok = "work_sum += m->to; /* sent again at once */\n@FREE@(m);"
        if lk is None:
            end = indent(ok, 3)
        elif lk.at_exit == "lost":
            end = branch([lk.late()], "@p@_retries_@i@++; /* to be sent again: dropped */", ok)
        else:
            end = branch([lk.late()], "@p@_retries_@i@++;\nm->retired_next = @p@_retired_@i@;\n"
                         "@p@_retired_@i@ = m; /* the retry queue */", ok)
        e["END"] = sub(end, e)
        e["RETIRED"] = (f"static struct {M} *{self.p}_retired_{self.i};\n"
                        if lk and lk.at_exit == "freed" else "")
        e["RETIRED_FREE"] = sub(retired_free(lk, M, f"{self.p}_retired_{self.i}", self.free), e)
        return sub(r"""
/* @p@ (@i@): messages made, sent and freed; 1 in @K@ must be retried. */
struct @M@ {
   struct @M@ *retired_next;
   unsigned to;
   size_t size;
   char body[];
};

static unsigned long @p@_sent_@i@, @p@_retries_@i@;
@RETIRED@
NOINLINE static struct @M@ *@p@_message_new_@i@(unsigned to, size_t n)
{
   struct @M@ *m = (struct @M@ *)@ALLOC@(sizeof *m + n);
   m->retired_next = NULL;
   m->to = to;
   m->size = n;
   fill_block(m->body, n, to);
   return m;
}

NOINLINE static void @p@_send_@i@(struct @M@ *m, unsigned cycle)
{
   (void)cycle;
   work_sum += digest(m->body, m->size) + m->to;
   if (random_below(@K@) != 0) {
      @p@_sent_@i@++;
      @FREE@(m);
      return;
   }
@END@
}

NOINLINE static void @p@_enqueue_@i@(unsigned cycle, unsigned req)
{
   unsigned n = 1 + random_below(@PER@);
   for (unsigned k = 0; k < n; k++) {
      struct @M@ *m = @p@_message_new_@i@(req * 8 + k, random_size(@LO@, @HI@));
      @p@_send_@i@(m, cycle);
   }
}

static void @p@_shutdown_@i@(void)
{
@RETIRED_FREE@
}
""", dict(e, RETIRED_FREE=e["RETIRED_FREE"] or "   /* nothing kept */"))

    def per_request(self):
        return [f"{self.fn('enqueue')}(cycle, req);"]

    def shutdown(self):
        return [f"{self.fn('shutdown')}();"]

    def stats(self):
        return [f"{self.p}_sent_{self.i}", f"{self.p}_retries_{self.i}"]


# ---- metrics snapshots, published now and then -----------------------------


class Metrics(Component):
    kind = "metrics"
    prefixes = ("metrics", "stats", "gauges", "counters", "telemetry")
    hosts = ("snapshot",)
    trap = True

    def plan(self):
        r = self.rng
        self.nc = r.int(4, 400)
        self.every = r.int(1, 60)
        self.history = r.choice([0, r.int(4, 200)])
        if self.history:
            published = self.prog.cycles * self.prog.requests // self.every
            self.history = max(2, min(self.history, published // 2))

    def plan_leak(self, leak):
        r = self.rng
        active = self.active_requests(leak)
        self.every = r.int(1, max(1, min(60, int(active / 20))))
        self.history = 0
        leak.shape = "steady: the previous snapshot is never freed"
        leak.functions = [self.fn("snapshot")]
        leak.headline = [self.fn("snapshot"), self.fn("publish")]
        leak.fix_at = self.fn("publish")
        leak.counter = self.counter_name("kept")
        leak.expected = active / self.every
        leak.about = (f"every {self.every} requests {self.fn('publish')} replaces the "
                      "snapshot " + ("and drops the old one" if leak.at_exit == "lost" else
                                     "and keeps the old one in a history never trimmed, "
                                     "freed at exit"))

    def describe(self):
        hist = f", the last {self.history} kept" if self.history else ""
        return f"{self.p}: {self.nc} counters, a snapshot every {self.every} requests{hist}"

    def code(self):
        lk = self.leak
        M = f"{self.p}_snap_{self.i}"
        e = self.env(M=M, NC=self.nc, EVERY=self.every, H=max(1, self.history))
        if self.history and lk is None:
            ok = """struct @M@ **slot = &@p@_history_@i@[@p@_hist_next_@i@];
@FREE@(*slot);
*slot = old;
@p@_hist_next_@i@ = (@p@_hist_next_@i@ + 1) % @H@;"""
        else:
            ok = "@FREE@(old);"
        if lk is None:
            end = indent(ok, 3)
        elif lk.at_exit == "lost":
            end = branch([lk.late()], "@p@_kept_@i@++; /* replaced, not freed */", ok)
        else:
            end = branch([lk.late()], "@p@_kept_@i@++;\nold->retired_next = @p@_retired_@i@;\n"
                         "@p@_retired_@i@ = old; /* the history */", ok)
        e["END"] = sub(end, e)
        e["RETIRED"] = (f"static struct {M} *{self.p}_retired_{self.i};\n"
                        if lk and lk.at_exit == "freed" else "")
        e["RETIRED_FREE"] = sub(retired_free(lk, M, f"{self.p}_retired_{self.i}", self.free), e)
        e["HIST"] = sub("static struct @M@ *@p@_history_@i@[@H@];\nstatic unsigned @p@_hist_next_@i@;\n"
                        if self.history and lk is None else "", e)
        e["HIST_FREE"] = sub("   for (unsigned k = 0; k < @H@; k++)\n      @FREE@(@p@_history_@i@[k]);\n"
                             if self.history and lk is None else "", e)
        return sub(r"""
/* @p@ (@i@): @NC@ counters; a snapshot is published every @EVERY@ requests. */
struct @M@ {
   struct @M@ *retired_next;
   unsigned seq;
   unsigned n;
   unsigned long values[@NC@];
};

static unsigned long @p@_counters_@i@[@NC@];
static struct @M@ *@p@_current_@i@;
static unsigned @p@_seq_@i@, @p@_since_@i@;
static unsigned long @p@_kept_@i@;
@HIST@@RETIRED@
NOINLINE static struct @M@ *@p@_snapshot_@i@(void)
{
   struct @M@ *m = (struct @M@ *)@ALLOC@(sizeof *m);
   m->retired_next = NULL;
   m->seq = ++@p@_seq_@i@;
   m->n = @NC@;
   memcpy(m->values, @p@_counters_@i@, sizeof m->values);
   return m;
}

NOINLINE static void @p@_publish_@i@(unsigned cycle)
{
   struct @M@ *old = @p@_current_@i@;
   (void)cycle;
   @p@_current_@i@ = @p@_snapshot_@i@();
   if (old == NULL)
      return;
   work_sum += old->values[old->seq % @NC@];
@END@
}

NOINLINE static void @p@_count_@i@(unsigned cycle, unsigned req)
{
   @p@_counters_@i@[random_below(@NC@)] += req;
   if (++@p@_since_@i@ == @EVERY@) {
      @p@_since_@i@ = 0;
      @p@_publish_@i@(cycle);
   }
}

static void @p@_shutdown_@i@(void)
{
   @FREE@(@p@_current_@i@);
   @p@_current_@i@ = NULL;
@HIST_FREE@@RETIRED_FREE@
}
""", e)

    def per_request(self):
        return [f"{self.fn('count')}(cycle, req);"]

    def shutdown(self):
        return [f"{self.fn('shutdown')}();"]

    def stats(self):
        return [f"{self.p}_seq_{self.i}", f"{self.p}_kept_{self.i}"]


# ---- a record of the run, for a report at the end (growth) -----------------


class Accumulator(Component):
    kind = "accumulator"
    prefixes = ("report", "summary", "ledger", "billing")
    trap = True

    def plan(self):
        r = self.rng
        self.every = r.int(1, 8)
        self.note = r.size(8, 200)
        self.growth = {"functions": [self.fn("collect")], "headline": [self.fn("collect")]}

    def describe(self):
        return (f"{self.p}: a record every {self.every} requests, kept for the report at "
                "exit (growth, not a leak)")

    def code(self):
        G = f"{self.p}_entry_{self.i}"
        e = self.env(G=G, EVERY=self.every, NOTE=self.note)
        return sub(r"""
/* @p@ (@i@): what the report at exit needs, a record every @EVERY@ requests. */
struct @G@ {
   struct @G@ *next;
   unsigned req;
   unsigned long value;
   char note[@NOTE@];
};

static struct @G@ *@p@_head_@i@;
static unsigned long @p@_count_@i@;

NOINLINE static void @p@_collect_@i@(unsigned req)
{
   struct @G@ *g = (struct @G@ *)@ALLOC@(sizeof *g);
   g->next = @p@_head_@i@;
   g->req = req;
   g->value = next_random();
   memset(g->note, 'a' + (int)(req % 26), sizeof g->note);
   @p@_head_@i@ = g;
   @p@_count_@i@++;
}

NOINLINE static void @p@_report_@i@(void)
{
   while (@p@_head_@i@ != NULL) {
      struct @G@ *next = @p@_head_@i@->next;
      work_sum += @p@_head_@i@->value & 0xff;
      @FREE@(@p@_head_@i@);
      @p@_head_@i@ = next;
   }
}
""", e)

    def per_request(self):
        if self.every == 1:
            return [f"{self.fn('collect')}(req);"]
        return [f"if (req % {self.every} == 0)\n   {self.fn('collect')}(req);"]

    def shutdown(self):
        return [f"{self.fn('report')}();"]

    def stats(self):
        return [f"{self.p}_count_{self.i}"]


# ---- worker threads with per-thread state -----------------------------------


class Workers(Component):
    kind = "workers"
    prefixes = ("worker", "encoder", "resizer", "indexer", "crawler", "scanner")
    hosts = ("one_thread",)
    threads = True

    def plan(self):
        r = self.rng
        self.nthreads = r.int(2, 4)
        self.jobs = r.int(2, 12)
        self.every = r.int(1, 4)
        self.scratch = r.size(256, 65536)
        self.ring = r.int(2, 32)
        self.rlo = r.size(32, 1024)
        self.rspan = r.size(16, 4096)
        self.alo = r.size(32, 512)
        self.aspan = r.size(16, 1024)
        self.seed = r.next64() & 0xFFFFFFFFFFFF
        rounds = (self.prog.cycles + self.every - 1) // self.every
        self.ring = max(2, min(self.ring, self.jobs * rounds // 2))
        self.leaky_thread = None

    def plan_leak(self, leak):
        r = self.rng
        self.leaky_thread = r.below(self.nthreads)
        leak.thread = self.leaky_thread
        rounds = 0
        for c in range(self.prog.cycles):
            if c % self.every == 0 and c >= leak.start_cycle:
                rounds += 1
        leak.shape = f"one thread: only worker {self.leaky_thread} of {self.nthreads} leaks"
        leak.functions = [self.fn("audit")]
        leak.headline = [self.fn("audit"), self.fn("job")]
        leak.fix_at = self.fn("job")
        leak.counter = self.counter_name("audited")
        leak.expected = rounds * self.jobs
        leak.about = (f"worker thread {self.leaky_thread} keeps the audit record of every "
                      "job it does" + (" and drops it" if leak.at_exit == "lost" else
                                       " on its own list, handed over and freed at exit"))

    def describe(self):
        return (f"{self.p}: {self.nthreads} worker threads, {self.jobs} jobs each every "
                f"{self.every} cycle(s), per-thread scratch and a ring of {self.ring} results")

    def includes(self):
        return ["pthread.h"]

    def code(self):
        lk = self.leak
        W, R, A = f"{self.p}_state_{self.i}", f"{self.p}_result_{self.i}", \
            f"{self.p}_audit_rec_{self.i}"
        e = self.env(W=W, R=R, A=A, NT=self.nthreads, JOBS=self.jobs, SCRATCH=self.scratch,
                     RING=self.ring, RLO=self.rlo, RSPAN=self.rspan, ALO=self.alo,
                     ASPAN=self.aspan, SEED=self.seed)
        ok = "@FREE@(a);"
        if lk is None:
            end = indent(ok, 3)
        else:
            if lk.at_exit == "lost":
                keep = "w->kept_count++; /* kept for an audit that never comes */"
            else:
                keep = "w->kept_count++;\na->retired_next = w->kept;\nw->kept = a;"
            end = branch([f"w->id == {self.leaky_thread}", lk.late()], keep, ok)
        e["END"] = sub(end, e)
        e["RETIRED_FREE"] = sub(retired_free(lk, A, f"{self.p}_retired_{self.i}", self.free), e)
        return sub(r"""
/* @p@ (@i@): @NT@ worker threads; each round, each does @JOBS@ jobs with its
 * own scratch buffer, keeping its last @RING@ results. */
struct @R@ {
   size_t size;
   unsigned job;
   char data[];
};

struct @A@ {
   struct @A@ *retired_next;
   unsigned job, thread;
   size_t size;
   char data[];
};

struct @W@ {
   unsigned id;
   uint64_t random;
   size_t scratch_size;
   char *scratch;
   struct @R@ *ring[@RING@];
   unsigned ring_next;
   struct @A@ *kept;
   unsigned long sum, kept_count;
};

static pthread_t @p@_threads_@i@[@NT@];
static pthread_mutex_t @p@_lock_@i@ = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t @p@_go_@i@ = PTHREAD_COND_INITIALIZER;
static pthread_cond_t @p@_done_@i@ = PTHREAD_COND_INITIALIZER;
static unsigned @p@_round_no_@i@, @p@_finished_@i@;
static int @p@_stopping_@i@;
static unsigned long @p@_sum_@i@, @p@_audited_@i@;
static struct @A@ *@p@_retired_@i@;

static unsigned @p@_random_@i@(struct @W@ *w)
{
   w->random = w->random * 6364136223846793005ULL + 1442695040888963407ULL;
   return (unsigned)(w->random >> 33);
}

NOINLINE static struct @W@ *@p@_state_new_@i@(unsigned id)
{
   struct @W@ *w = (struct @W@ *)@ALLOC@(sizeof *w);
   memset(w, 0, sizeof *w);
   w->id = id;
   w->random = @SEED@ULL + id * 0x9E3779B97F4A7C15ULL;
   w->scratch_size = @SCRATCH@;
   w->scratch = (char *)@ALLOC@(w->scratch_size);
   memset(w->scratch, 0, 64);
   return w;
}

NOINLINE static struct @R@ *@p@_result_@i@(struct @W@ *w, unsigned job)
{
   size_t n = @RLO@ + @p@_random_@i@(w) % @RSPAN@;
   struct @R@ *r = (struct @R@ *)@ALLOC@(sizeof *r + n);
   r->size = n;
   r->job = job;
   memset(r->data, (int)(job & 0x7f), n < 64 ? n : 64);
   return r;
}

NOINLINE static struct @A@ *@p@_audit_@i@(struct @W@ *w, unsigned job)
{
   size_t n = @ALO@ + @p@_random_@i@(w) % @ASPAN@;
   struct @A@ *a = (struct @A@ *)@ALLOC@(sizeof *a + n);
   a->retired_next = NULL;
   a->job = job;
   a->thread = w->id;
   a->size = n;
   memset(a->data, (int)(job & 0x7f), n < 64 ? n : 64);
   return a;
}

NOINLINE static void @p@_job_@i@(struct @W@ *w, unsigned cycle, unsigned job)
{
   struct @R@ *r = @p@_result_@i@(w, job);
   memcpy(w->scratch, r->data, r->size < 64 ? r->size : 64);
   w->sum += digest(w->scratch, 64);
   struct @R@ **slot = &w->ring[w->ring_next];
   @FREE@(*slot);
   *slot = r;
   w->ring_next = (w->ring_next + 1) % @RING@;
   struct @A@ *a = @p@_audit_@i@(w, job);
   (void)cycle;
   w->sum += digest(a->data, a->size);
@END@
}

static void @p@_state_free_@i@(struct @W@ *w)
{
   for (unsigned k = 0; k < @RING@; k++)
      @FREE@(w->ring[k]);
   @FREE@(w->scratch);
   pthread_mutex_lock(&@p@_lock_@i@);
   @p@_sum_@i@ += w->sum;
   @p@_audited_@i@ += w->kept_count;
   while (w->kept != NULL) {
      struct @A@ *next = w->kept->retired_next;
      w->kept->retired_next = @p@_retired_@i@;
      @p@_retired_@i@ = w->kept;
      w->kept = next;
   }
   pthread_mutex_unlock(&@p@_lock_@i@);
   @FREE@(w);
}

static void *@p@_thread_@i@(void *arg)
{
   struct @W@ *w = @p@_state_new_@i@((unsigned)(uintptr_t)arg);
   unsigned seen = 0;
   for (;;) {
      pthread_mutex_lock(&@p@_lock_@i@);
      while (@p@_round_no_@i@ == seen && !@p@_stopping_@i@)
         pthread_cond_wait(&@p@_go_@i@, &@p@_lock_@i@);
      if (@p@_round_no_@i@ == seen) {
         pthread_mutex_unlock(&@p@_lock_@i@);
         break;
      }
      seen = @p@_round_no_@i@;
      pthread_mutex_unlock(&@p@_lock_@i@);
      for (unsigned j = 0; j < @JOBS@; j++)
         @p@_job_@i@(w, seen - 1, ((seen - 1) * @NT@ + w->id) * @JOBS@ + j);
      pthread_mutex_lock(&@p@_lock_@i@);
      @p@_finished_@i@++;
      pthread_cond_signal(&@p@_done_@i@);
      pthread_mutex_unlock(&@p@_lock_@i@);
   }
   @p@_state_free_@i@(w);
   return NULL;
}

static void @p@_start_@i@(void)
{
   for (unsigned k = 0; k < @NT@; k++)
      pthread_create(&@p@_threads_@i@[k], NULL, @p@_thread_@i@, (void *)(uintptr_t)k);
}

/* One round: every worker does its jobs; returns when all are done. */
NOINLINE static void @p@_round_@i@(unsigned cycle)
{
   pthread_mutex_lock(&@p@_lock_@i@);
   @p@_finished_@i@ = 0;
   @p@_round_no_@i@ = cycle + 1;
   pthread_cond_broadcast(&@p@_go_@i@);
   while (@p@_finished_@i@ < @NT@)
      pthread_cond_wait(&@p@_done_@i@, &@p@_lock_@i@);
   pthread_mutex_unlock(&@p@_lock_@i@);
}

static void @p@_shutdown_@i@(void)
{
   pthread_mutex_lock(&@p@_lock_@i@);
   @p@_stopping_@i@ = 1;
   pthread_cond_broadcast(&@p@_go_@i@);
   pthread_mutex_unlock(&@p@_lock_@i@);
   for (unsigned k = 0; k < @NT@; k++)
      pthread_join(@p@_threads_@i@[k], NULL);
   work_sum += @p@_sum_@i@;
@RETIRED_FREE@
}
""", e)

    def startup(self):
        return [f"{self.fn('start')}();"]

    def per_cycle(self):
        if self.every == 1:
            return [f"{self.fn('round')}(cycle);"]
        return [f"if (cycle % {self.every} == 0)\n   {self.fn('round')}(cycle);"]

    def shutdown(self):
        return [f"{self.fn('shutdown')}();"]

    def stats(self):
        return [f"{self.p}_audited_{self.i}"]


KINDS = {c.kind: c for c in (Sessions, Cache, Pool, Arena, KeyTable, StartupTable, Batch,
                             Vector, Errors, Messages, Metrics, Accumulator, Workers)}


# ---- C++ renderings ---------------------------------------------------------
# In a C++ program (Program.language), these components are written with new
# and delete and the standard containers; the others stay in C style
# (malloc, as much C++ code still is).


def sessions_cxx(self):
    lk = self.leak
    S = f"{self.p}_{self.i}"
    e = self.env(S=S, CAP=self.cap, P_OPEN=self.p_open, LO=self.lo, HI=self.hi,
                 K=self.expire_k)
    ok = "delete s;"
    if lk is None:
        end = indent(ok, 3)
    elif lk.at_exit == "lost":
        end = branch([lk.late()], "@p@_orphaned_@i@++; /* taken out of the table, never closed */",
                     ok)
    else:
        end = branch([lk.late()], "@p@_orphaned_@i@++;\ns->retired_next = @p@_retired_@i@;\n"
                     "@p@_retired_@i@ = s; /* kept for the statistics at exit */", ok)
    e["EXPIRE_END"] = sub(end, e)
    e["RETIRED_FREE"] = sub(retired_free(lk, S, f"{self.p}_retired_{self.i}", "delete")
                            .replace("delete(", "delete (") if lk else "", e)
    return sub(r"""
/* @p@ sessions (@i@): at most @CAP@ live, opened and closed at random; 1 in
 * @K@ closes is a time-out, handled by @p@_expire_@i@. */
struct @S@ {
   @S@ *retired_next = nullptr;
   unsigned id = 0;
   unsigned long sent = 0;
   std::string peer;
   std::vector<char> inbox;
};

static std::vector<@S@ *> @p@_table_@i@;
static unsigned @p@_next_id_@i@;
static unsigned long @p@_orphaned_@i@;
static @S@ *@p@_retired_@i@;

NOINLINE static @S@ *@p@_open_@i@()
{
   @S@ *s = new @S@;
   s->id = ++@p@_next_id_@i@;
   s->peer = "peer-" + std::to_string(s->id) + ".clients.example.net";
   s->inbox.assign(random_size(@LO@, @HI@), (char)(s->id & 0x7f));
   @p@_table_@i@.push_back(s);
   return s;
}

static @S@ *@p@_unlink_@i@(unsigned slot)
{
   @S@ *s = @p@_table_@i@[slot];
   @p@_table_@i@[slot] = @p@_table_@i@.back();
   @p@_table_@i@.back() = nullptr;
   @p@_table_@i@.pop_back();
   return s;
}

NOINLINE static void @p@_close_@i@(unsigned slot)
{
   @S@ *s = @p@_unlink_@i@(slot);
   work_sum += digest(s->inbox.data(), s->inbox.size()) + s->sent + s->peer.size();
   delete s;
}

/* A session whose peer went silent. */
NOINLINE static void @p@_expire_@i@(unsigned slot, unsigned cycle)
{
   @S@ *s = @p@_unlink_@i@(slot);
   (void)cycle;
   work_sum += s->sent;
@EXPIRE_END@
}

NOINLINE static void @p@_step_@i@(unsigned cycle)
{
   unsigned count = (unsigned)@p@_table_@i@.size();
   if (random_below(100) < @P_OPEN@ && count < @CAP@) {
      @p@_open_@i@();
   } else if (count > 0) {
      unsigned slot = random_below(count);
      if (random_below(@K@) == 0)
         @p@_expire_@i@(slot, cycle);
      else
         @p@_close_@i@(slot);
   }
   if (!@p@_table_@i@.empty()) {
      @S@ *s = @p@_table_@i@[random_below((unsigned)@p@_table_@i@.size())];
      s->sent += digest(s->inbox.data(), s->inbox.size()) & 0xff;
   }
}

static void @p@_shutdown_@i@()
{
   while (!@p@_table_@i@.empty())
      @p@_close_@i@((unsigned)@p@_table_@i@.size() - 1);
@RETIRED_FREE@
}
""", e)


def cache_cxx(self):
    lk = self.leak
    V, E = f"{self.p}_value_{self.i}", f"{self.p}_entry_{self.i}"
    e = self.env(V=V, E=E, CAP=self.cap, KEYS=self.keys, SKEW=self.skew, LO=self.lo,
                 HI=self.hi, TTL=self.ttl, LOOKUPS=self.lookups)
    ok = "delete v;"
    if lk is None:
        end = indent(ok, 3)
    else:
        if lk.at_exit == "lost":
            keep = "@p@_stale_@i@++; /* the value stays behind */"
        else:
            keep = ("@p@_stale_@i@++;\nv->retired_next = @p@_retired_@i@;\n"
                    "@p@_retired_@i@ = v; /* readers may still hold it */")
        conds = [f"random_below({self.leak_k}) == 0" if self.leak_k > 1 else None, lk.late()]
        end = branch(conds, keep, ok)
    e["VALUE_END"] = sub(end, e)
    e["RETIRED_FREE"] = sub(retired_free(lk, V, f"{self.p}_retired_{self.i}", "delete")
                            .replace("delete(", "delete (") if lk else "", e)
    e["VICTIM"] = sub("std::next(@p@_lru_@i@.begin(), random_below((unsigned)@p@_lru_@i@.size()))"
                      if self.policy == "random" else "std::prev(@p@_lru_@i@.end())", e)
    e["TOUCH"] = sub("      @p@_lru_@i@.splice(@p@_lru_@i@.begin(), @p@_lru_@i@, f->second);\n"
                     if self.policy == "lru" else "", e)
    code = sub(r"""
/* @p@ (@i@): a cache of @CAP@ values fetched by @p@_load_@i@, over @KEYS@ keys;
 * the list's front is the newest. */
struct @V@ {
   @V@ *retired_next = nullptr;
   unsigned key = 0;
   std::vector<char> data;
};

struct @E@ {
   unsigned key;
   unsigned born;
   @V@ *value;
};

static std::list<@E@> @p@_lru_@i@;
static std::unordered_map<unsigned, std::list<@E@>::iterator> @p@_index_@i@;
static unsigned long @p@_hits_@i@, @p@_misses_@i@, @p@_stale_@i@;
static @V@ *@p@_retired_@i@;

/* Fetches a value from the backend. */
NOINLINE static @V@ *@p@_load_@i@(unsigned key)
{
   @V@ *v = new @V@;
   v->key = key;
   v->data.assign(random_size(@LO@, @HI@), (char)(key & 0x7f));
   return v;
}

NOINLINE static void @p@_evict_@i@(std::list<@E@>::iterator it, unsigned cycle)
{
   @V@ *v = it->value;
   (void)cycle;
   work_sum += digest(v->data.data(), v->data.size());
   @p@_index_@i@.erase(it->key);
   @p@_lru_@i@.erase(it);
@VALUE_END@
}

NOINLINE static void @p@_insert_@i@(unsigned key, unsigned cycle)
{
   if (@p@_lru_@i@.size() == @CAP@)
      @p@_evict_@i@(@VICTIM@, cycle);
   @V@ *v = @p@_load_@i@(key);
   @p@_lru_@i@.push_front(@E@{key, cycle, v});
   @p@_index_@i@[key] = @p@_lru_@i@.begin();
}

NOINLINE static void @p@_get_@i@(unsigned key, unsigned cycle)
{
   auto f = @p@_index_@i@.find(key);
   if (f != @p@_index_@i@.end()) {
      @p@_hits_@i@++;
@TOUCH@      work_sum += digest(f->second->value->data.data(), f->second->value->data.size());
      return;
   }
   @p@_misses_@i@++;
   @p@_insert_@i@(key, cycle);
}

NOINLINE static void @p@_step_@i@(unsigned cycle)
{
   for (unsigned k = 0; k < @LOOKUPS@; k++)
      @p@_get_@i@(skewed_below(@KEYS@, @SKEW@), cycle);
}
""", e)
    if self.policy == "ttl":
        code += sub(r"""
/* Drops the entries older than @TTL@ cycles. */
NOINLINE static void @p@_sweep_@i@(unsigned cycle)
{
   while (!@p@_lru_@i@.empty() && @p@_lru_@i@.back().born + @TTL@ <= cycle)
      @p@_evict_@i@(std::prev(@p@_lru_@i@.end()), cycle);
}
""", e)
    code += sub(r"""
static void @p@_shutdown_@i@()
{
   for (@E@ &entry : @p@_lru_@i@)
      delete entry.value;
   @p@_lru_@i@.clear();
   @p@_index_@i@.clear();
@RETIRED_FREE@
}
""", e)
    return code


def vector_cxx(self):
    T = f"{self.p}_item_{self.i}"
    e = self.env(T=T, TAG=self.tag, K=self.push_k, WINDOW=self.window)
    code = sub(r"""
/* @p@ (@i@): a std::vector, grown by copy as it fills. */
struct @T@ {
   unsigned id;
   unsigned cycle;
   unsigned long score;
   char tag[@TAG@];
};

static std::vector<@T@> @p@_items_@i@;

NOINLINE static void @p@_push_@i@(unsigned id, unsigned cycle)
{
   @T@ t;
   t.id = id;
   t.cycle = cycle;
   t.score = next_random();
   memset(t.tag, 'a' + (int)(id % 26), sizeof t.tag);
   @p@_items_@i@.push_back(t);
}

NOINLINE static void @p@_step_@i@(unsigned cycle, unsigned req)
{
   unsigned n = 1 + random_below(@K@);
   for (unsigned k = 0; k < n; k++)
      @p@_push_@i@(req * 4 + k, cycle);
}

NOINLINE static void @p@_trim_@i@()
{
   size_t n = @p@_items_@i@.size();
   if (n < @WINDOW@)
      return;
   @p@_items_@i@.erase(@p@_items_@i@.begin(), @p@_items_@i@.begin() + (long)(n - n / 2));
}

NOINLINE static void @p@_drain_@i@(int release)
{
   for (const @T@ &t : @p@_items_@i@)
      work_sum += t.score & 0xff;
   if (release)
      std::vector<@T@>().swap(@p@_items_@i@);
   else
      @p@_items_@i@.clear();
}
""", e)
    return code


def _cxx(method_c, method_cxx, leak_ok=True):
    def code(self):
        if self.prog.language == "C++" and (leak_ok or self.leak is None):
            return method_cxx(self)
        return method_c(self)
    return code


CXX_HEADERS = {"sessions": ["string", "vector"], "cache": ["list", "unordered_map", "vector"],
               "vector": ["vector"]}


def _includes(kind, base):
    def includes(self):
        out = list(base(self))
        if self.prog.language == "C++" and (kind != "vector" or self.leak is None):
            out += CXX_HEADERS[kind]
        return out
    return includes


Sessions.code = _cxx(Sessions.code, sessions_cxx)
Sessions.includes = _includes("sessions", Sessions.includes)
Cache.code = _cxx(Cache.code, cache_cxx)
Cache.includes = _includes("cache", Cache.includes)
Vector.code = _cxx(Vector.code, vector_cxx, leak_ok=False)
Vector.includes = _includes("vector", Vector.includes)


# ---- what a bounded structure holds, cycle by cycle -------------------------
# A structure meant to look like growth at first (a cache filling, a table
# over fixed keys, sessions in a random walk...) may still be growing when
# the run ends: then, in this run, it is growth, and the truth must say so.
# Program.size_probes() prints these sizes at the end of each cycle when the
# program runs with GEN_SIZES set (generate does, natively); the structure is
# growth when it holds less than 90 % of its peak at 60 % of the run
# (program.STILL_GROWING).  Each entry: (C expression, the functions that
# allocate what it counts).


def _probe(self):
    cxx = self.prog.language == "C++"
    p, i = self.p, self.i
    if self.kind == "sessions":
        if self.p_open <= 50:   # a random walk: bounded by chance, not growth
            return None
        return (f"{p}_table_{i}.size()" if cxx else f"{p}_count_{i}", [self.fn("open")])
    if self.kind == "cache":
        return (f"{p}_lru_{i}.size()" if cxx else f"{p}_count_{i}",
                [self.fn("load"), self.fn("insert")])
    if self.kind == "pool":
        return (f"{p}_made_{i}", [self.fn("grow")])
    if self.kind == "table":
        return (f"{p}_entries_{i}", [self.fn("intern")])
    if self.kind == "startup":
        return (f"{p}_loaded_{i}", [self.fn("text"), self.fn("load")])
    if self.kind == "vector" and self.mode in ("window", "reuse"):
        if cxx and self.leak is None:
            return (f"{p}_items_{i}.capacity()", [self.fn("push")])
        return (f"{p}_cap_{i}", [self.fn("grow")])
    if self.kind == "metrics" and self.history and self.leak is None:
        return (f"({p}_seq_{i} < {self.history} ? {p}_seq_{i} : {self.history})",
                [self.fn("snapshot")])
    return None


def _workers_fill_cycle(self):
    """The cycle whose round fills every worker's ring of results (the
    rounds are known in advance: no need to measure)."""
    done = 0
    for c in range(self.prog.cycles):
        if c % self.every == 0:
            done += self.jobs
            if done >= self.ring:
                return c
    return self.prog.cycles


Component.probe = lambda self: None
for _cls in (Sessions, Cache, Pool, KeyTable, StartupTable, Vector, Metrics):
    _cls.probe = _probe
Workers.fill_cycle = _workers_fill_cycle
