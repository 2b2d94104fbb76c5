"""tests/py/read_limits_guarded.py SECONDS SANITIZED OUT COMMAND...: runs
COMMAND with SECONDS of CPU time and, unless SANITIZED is not empty, 2 GiB
of address space, its output in OUT.out and OUT.err (tests/t-read-limits.sh).
Prints its exit status (128 + the signal when killed) and the most memory
it held, in MiB."""

import resource, subprocess, sys
seconds, sanitized, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
def limits():
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds))
    if not sanitized:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
with open(out + ".out", "wb") as o, open(out + ".err", "wb") as e:
    status = subprocess.run(sys.argv[4:], stdout=o, stderr=e, preexec_fn=limits).returncode
print(status if status >= 0 else 128 - status,
      resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
