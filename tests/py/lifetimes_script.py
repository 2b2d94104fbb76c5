"""tests/py/lifetimes_script.py SEED OPS THREADS: a script for
tests/programs/lifetimes (tests/t-lifetimes.sh) of OPS random heap
operations (THREADS: yes to give some to the workers), between a block
born first and freed last by free_late, slot 1 grown and shrunk all
along; printed one operation a line."""

import random, sys
r = random.Random(int(sys.argv[1]))
n_ops, threads = int(sys.argv[2]), sys.argv[3] == "yes"
live = {}           # slot -> "m" (malloc family), "n" (new[]), "p" (pool)
pools = 0
out = ["malloc 0 3000"]
live[0] = "m"
def size():
    k = r.random()
    return r.randrange(0, 64) if k < 0.3 else r.randrange(64, 2000) if k < 0.8 else r.randrange(2000, 20000)
grown = 0
for i in range(n_ops):
    if i % 7 == 0:
        grown = max(0, grown + r.randrange(-3000, 6000))
        out.append(f"grow 1 {grown or 1}")
        continue
    free_slots = [s for s in range(2, 48) if s not in live]
    used = [s for s in live if s > 1]
    k = r.random()
    if free_slots and (k < 0.4 or not used):
        s = r.choice(free_slots)
        kind = r.choice(["malloc", "mallocb", "calloc", "memalign", "posix", "aligned", "new", "pool"])
        if kind == "pool" and pools >= 60:
            kind = "malloc"
        a = r.choice([16, 32, 64, 256, 4096])
        n = size()
        if kind == "calloc":
            out.append(f"calloc {s} {r.randrange(1, 20)} {n // 10}")
        elif kind in ("memalign", "posix"):
            out.append(f"{kind} {s} {a} {n}")
        elif kind == "aligned":
            out.append(f"aligned {s} {a} {(n + a - 1) // a * a}")
        elif kind == "pool":
            pools += 1
            out.append(f"pool {s} {n}")
        else:
            out.append(f"{kind} {s} {n}")
        live[s] = {"new": "n", "pool": "p"}.get(kind, "m")
    elif k < 0.75:
        s = r.choice(used)
        op = {"m": r.choice(["free", "free"]), "n": "delete", "p": "poolfree"}[live.pop(s)]
        out.append(f"{op} {s}")
    else:
        s = r.choice(used)
        if live[s] == "m":
            out.append(f"{r.choice(['grow', 'move'])} {s} {size() or 1}")
        elif live[s] == "p":
            out.append(f"poolresize {s} {size()}")
        else:
            out.append(f"delete {s}")
            del live[s]
    if threads and r.random() < 0.4:
        out[-1] = f"@{r.choice('12')} " + out[-1]
out.append("freelate 0")
print("\n".join(out))
