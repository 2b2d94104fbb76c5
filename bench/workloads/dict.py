# A dict- and string-heavy interpreter workload (run with PYTHONMALLOC=malloc,
# so that every object is a malloc'd block with a deep C stack).
import sys

rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
for r in range(rounds):
    table = {}
    for i in range(50000):
        key = "k%d-%s" % (i, "x" * (i % 17))
        table[key] = [key.upper(), str(i * r)]
    joined = 0
    for key, value in table.items():
        if key.endswith("x"):
            joined += len(value[0] + value[1])
    del table
print(joined)
