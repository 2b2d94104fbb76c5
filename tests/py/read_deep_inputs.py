"""tests/py/read_deep_inputs.py WORK: the inputs of tests/t-read-deep.sh,
written in WORK: deep.massif (a tree 3,000 entries deep) and deep.strata
(stacks 10,000 frames deep)."""

import sys
work = sys.argv[1]
depth = 3000
lines = ["desc: --depth=%d" % depth, "cmd: ./deep", "time_unit: i"]
for snapshot, leaf in ((0, 100), (1, 300)):
    lines += ["#-----------", "snapshot=%d" % snapshot, "#-----------",
              "time=%d" % (10 * snapshot), "mem_heap_B=%d" % (leaf + 50),
              "mem_heap_extra_B=0", "mem_stacks_B=0", "heap_tree=detailed",
              "n1: %d (heap allocation functions) malloc/new/new[], --alloc-fns, etc." % (leaf + 50)]
    for d in range(1, depth + 1):
        children = 2 if d == depth - 1 else 1 if d < depth else 0
        held = leaf + 50 if d < depth else leaf
        lines.append(" " * d + "n%d: %d 0x%x: f%d (deep.c:%d)" % (children, held, 0x400000 + d, d, d))
    lines.append(" " * depth + "n0: 50 0x500000: other (deep.c:1)")
open(work + "/deep.massif", "w").write("\n".join(lines) + "\n")

depth = 10000
lines = ["strata-profile\t2", "cmd\t./deep", "pid\t1", "ppid\t0", "time_unit\ti", "opt\tdepth\t%d" % depth]
for d in range(1, depth + 2):
    lines.append("F\t%d\t0x%x\t0\tf%d\tdeep.c\t%d\t/bin/deep\t" % (d, 0x400000 + d, d, d))
lines.append("S\t1\t" + "\t".join(str(i) for i in range(1, depth + 1)))
lines.append("S\t2\t" + "\t".join(str(i) for i in range(1, depth)) + "\t%d" % (depth + 1))
lines.append("S\t3\t" + "\t".join(str(i) for i in range(2, depth + 1)))
lines += ["T\tregular\t10\t600\t0\t0", "s\t1\t100\t1\t0\t100", "s\t2\t200\t1\t0\t200",
          "s\t3\t300\t1\t0\t300", "E", "T\tfinal\t20\t600\t0\t0", "E", "X\t20"]
open(work + "/deep.strata", "w").write("\n".join(lines) + "\n")
