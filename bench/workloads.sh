# bench/workloads.sh: the workloads of the benchmarks, sourced by bench/run
# and bench/interleave.
#
#   bench_workloads WORK SRC   fills the associative array `workload` (name ->
#                              command line, run from the top of the build
#                              tree) and the array `order`, and writes the
#                              awk workload's input into WORK; SRC is the
#                              source tree.  Returns 1, with a line on
#                              stderr, when cc1plus (g++) or awk is missing.
bench_workloads() {
  local work=$1 src=$2 cc1plus awk
  cc1plus=$(ls /usr/lib/gcc/x86_64-linux-gnu/*/cc1plus 2>/dev/null | sort -V | tail -1)
  awk=$(readlink -f /usr/bin/awk)
  test -x "$cc1plus" -a -x "$awk" || { echo "bench: cc1plus (g++) and awk are needed" >&2; return 1; }
  python3 -c '
import random
r = random.Random(1)
for i in range(200000):
    print(" ".join(r.choice(["alpha", "beta", "gamma"]) + str(r.randint(0, 30000)) for _ in range(6)))
' >"$work/words.txt"
  echo '{ for (i = 1; i <= NF; i++) n[$i]++ } END { for (w in n) c++; print c }' >"$work/count.awk"
  workload=(
    [stress-1e3]="bench/stress 1000 2000000"
    [stress-1e5]="bench/stress 100000 2000000"
    [stress-1e6]="bench/stress 1000000 2000000"
    [python-dict]="/usr/bin/python3 $src/bench/workloads/dict.py 3"
    [cxx-templates]="bench/templates 10"
    [cc1plus]="$cc1plus -quiet -imultiarch x86_64-linux-gnu -D_GNU_SOURCE $src/bench/workloads/small.cpp -O1 -o $work/small.s"
    [awk-words]="$awk -f $work/count.awk $work/words.txt"
  )
  order=(stress-1e3 stress-1e5 stress-1e6 python-dict cxx-templates cc1plus awk-words)
}
