"""tests/py/convert_massif_inputs.py WORK: the inputs of tests/t-convert-massif.sh,
written in WORK: deep.strata (one site 10,000 frames deep), many.strata
and huge.strata (small profiles with large massif.out files),
unnamed.strata (frames without a symbol), killed.strata and
stopped.strata (cut short), bytes.strata (names that are not UTF-8) and
nopeak.massif (a peak without a tree)."""

import sys
work = sys.argv[1]
head = ["strata-profile\t2", "cmd\t./p", "pid\t1", "ppid\t0", "time_unit\ti"]

# One site 10,000 frames deep.
depth = 10000
lines = list(head)
for d in range(1, depth + 1):
    lines.append("F\t%d\t0x%x\t0\tf%d\tdeep.c\t%d\t/bin/deep\t" % (d, 0x400000 + d, d, d))
lines += ["S\t1\t" + "\t".join(str(i) for i in range(1, depth + 1)),
          "T\tregular\t10\t100\t0\t0", "s\t1\t100\t1\t0\t100", "E", "X\t20"]
open(work + "/deep.strata", "w").write("\n".join(lines) + "\n")

# sites x depth frames, then one site changing at each snapshot: a small
# profile, a large massif.out (every site at every detailed snapshot).
def many(sites, depth, snapshots, name):
    lines, held = list(head), [100] * sites
    for s in range(sites):
        for d in range(depth):
            n = s * depth + d + 1
            lines.append("F\t%d\t0x%x\t0\tfn_%d_%d\tmany.c\t%d\t/bin/many\t0x%x" %
                         (n, 0x400000 + n, s, d, d + 1, n))
    for s in range(sites):
        lines.append("S\t%d\t" % (s + 1) + "\t".join(str(s * depth + d + 1) for d in range(depth)))
    lines.append("T\tregular\t1\t%d\t0\t0" % (100 * sites))
    lines += ["s\t%d\t100\t1\t0\t100" % (s + 1) for s in range(sites)] + ["E"]
    for k in range(snapshots):
        s = k % sites
        held[s] += 8
        lines += ["T\tregular\t%d\t%d\t0\t0" % (k + 2, sum(held)),
                  "s\t%d\t%d\t1\t%d\t%d" % (s + 1, held[s], held[s] - 8, held[s]), "E"]
    lines.append("X\t%d" % (snapshots + 3))
    open(work + "/" + name, "w").write("\n".join(lines) + "\n")
many(100, 20, 1500, "many.strata")
many(100, 20, 12000, "huge.strata")

# Frames without a symbol in a position-independent executable and a
# library: named by their offsets (sort+0x6e8c), not their addresses.
lines = head + [
    "F\t1\t0x10ee8c\t0\t\t\t0\t/usr/bin/sort\t0x6e8c",
    "F\t2\t0x10f000\t0\t\t\t0\t/usr/bin/sort\t0x7000",
    "F\t3\t0x7f0000001234\t0\t\t\t0\t/lib/libz.so.1\t0x1234",
    "F\t4\t0x10a000\t0\tmain\t\t0\t/usr/bin/sort\t0x2000",
    "S\t1\t1\t4", "S\t2\t2\t4", "S\t3\t3\t2\t4",
    "T\tregular\t10\t3000\t0\t0", "s\t1\t1000\t1\t0\t1000", "s\t2\t1500\t1\t0\t1500",
    "s\t3\t500\t1\t0\t500", "E",
    "T\tregular\t20\t1000\t0\t0", "s\t1\t0\t0\t0\t1000", "s\t2\t500\t1\t500\t1500", "E",
    "X\t30"]
open(work + "/unnamed.strata", "w").write("\n".join(lines) + "\n")
# Cut short: without its end, and stopped by the tool with a reason.
cut = lines[:-1]
open(work + "/killed.strata", "w").write("\n".join(cut) + "\n")
open(work + "/stopped.strata", "w").write(
    "\n".join(cut + ["Q\t25\tthe disk is full (ENOSPC) \\ really"]) + "\n")

# Names that are not UTF-8, a C1 control and a bidirectional override.
lines = head + [
    "F\t1\t0x401000\t0\tbad\xff\xfe name\ttext.c\t1\t/bin/t\t",
    "F\t2\t0x401010\t0\tc1\xc2\x85 and \xe2\x80\xae rtl\ttext.c\t2\t/bin/t\t",
    "F\t3\t0x401020\t0\tmain\ttext.c\t3\t/bin/t\t",
    "S\t1\t1\t3", "S\t2\t2\t3",
    "T\tregular\t10\t300\t0\t0", "s\t1\t100\t1\t0\t100", "s\t2\t200\t1\t0\t200", "E", "X\t20"]
open(work + "/bytes.strata", "wb").write(("\n".join(lines) + "\n").encode("latin-1"))

# A massif.out file whose peak has no tree: massif's sites are from the
# detailed snapshot 4,000 instructions before it.
lines = ["desc: --depth=3", "cmd: ./p", "time_unit: i"]
def snapshot(n, time, heap, tree):
    lines.extend(["#-----------", "snapshot=%d" % n, "#-----------", "time=%d" % time,
                  "mem_heap_B=%d" % heap, "mem_heap_extra_B=0", "mem_stacks_B=0"] + tree)
snapshot(0, 1000, 100, ["heap_tree=detailed",
                        "n1: 100 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.",
                        " n0: 100 0x401000: f (p.c:1)"])
snapshot(1, 5000, 200, ["heap_tree=empty"])
snapshot(2, 9000, 50, ["heap_tree=empty"])
open(work + "/nopeak.massif", "w").write("\n".join(lines) + "\n")
