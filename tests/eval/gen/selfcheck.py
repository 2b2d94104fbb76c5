"""selfcheck.py: generate --check, the truths confirmed by memcheck, without
strata.

For each seed: the program is built as scripts/leak-eval runs it and run
under valgrind --tool=memcheck --leak-check=full; then

  - a leak whose blocks lose their last pointer ("lost") must show as
    definitely lost in a loss record whose stack holds one of its functions;
  - a leak kept on a list freed at exit ("freed") must show nowhere; built
    again with -DGEN_SELF_CHECK (the list dropped instead of freed) it must
    show as definitely lost in its functions, which proves it happened where
    the truth says;
  - a leak kept in a table to exit ("reachable") must show as still
    reachable in its functions;
  - nothing may be definitely, indirectly or possibly lost outside the
    functions of the truth's leaks: a leak-free program loses nothing.
"""

import os
import subprocess
import xml.etree.ElementTree as ET

from program import Program

LOST = ("Leak_DefinitelyLost", "Leak_IndirectlyLost", "Leak_PossiblyLost")


def memcheck(exe, xml_path):
    cmd = ["valgrind", "--tool=memcheck", "--leak-check=full",
           "--show-leak-kinds=definite,indirect,possible,reachable", "--num-callers=40",
           "--xml=yes", f"--xml-file={xml_path}", exe]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit status {done.returncode}\n{done.stderr[-2000:]}")
    records = []
    for err in ET.parse(xml_path).getroot().iter("error"):
        kind = err.findtext("kind")
        if not kind.startswith("Leak_"):
            records.append((kind, 0, 0, []))
            continue
        xwhat = err.find("xwhat")
        nbytes = int(xwhat.findtext("leakedbytes", "0"))
        blocks = int(xwhat.findtext("leakedblocks", "0"))
        stack = [f.findtext("fn") or "?" for f in err.find("stack").iter("frame")]
        records.append((kind, nbytes, blocks, stack))
    return records


def holds(stack, functions):
    return any(fn.split("(")[0] in functions for fn in stack)


def check_program(prog, exe, selfcheck_exe, out):
    """Returns (ok, lines)."""
    lines, ok = [], True
    records = memcheck(exe, os.path.join(out, prog.name + ".memcheck.xml"))
    others = [r for r in records if not r[0].startswith("Leak_")]
    if others:
        ok = False
        lines.append(f"  memcheck errors: {', '.join(sorted({r[0] for r in others}))}")
    leaks = [c.leak for c in prog.leaks()]
    all_functions = {f for lk in leaks for f in lk.functions}
    lost_functions = {f for lk in leaks if lk.at_exit == "lost" for f in lk.functions}
    for kind, nbytes, blocks, stack in records:
        if kind not in LOST:
            continue
        allowed = all_functions if kind == "Leak_IndirectlyLost" else lost_functions
        if not holds(stack, allowed):
            ok = False
            lines.append(f"  unexpected {kind}: {blocks} blocks, {nbytes} bytes at "
                         f"{' < '.join(stack[:6])}")
    for lk in leaks:
        fns = set(lk.functions)
        if lk.at_exit == "lost":
            found = [r for r in records if r[0] == "Leak_DefinitelyLost" and holds(r[3], fns)]
            what = "definitely lost"
        elif lk.at_exit == "reachable":
            found = [r for r in records if r[0] == "Leak_StillReachable" and holds(r[3], fns)]
            what = "still reachable"
        else:
            found = [r for r in records if r[0] in LOST and holds(r[3], fns)]
            if found:
                ok = False
                lines.append(f"  {'/'.join(lk.functions)}: freed at exit, but memcheck "
                             f"says {found[0][0]}")
            continue
        if found:
            found += [r for r in records if r[0] == "Leak_IndirectlyLost" and holds(r[3], fns)]
            lines.append(f"  {'/'.join(lk.functions)}: {what}, {sum(r[2] for r in found)} "
                         f"blocks, {sum(r[1] for r in found)} bytes ({lk.at_exit})")
        else:
            ok = False
            lines.append(f"  {'/'.join(lk.functions)}: NOT {what} ({lk.at_exit})")
    freed = [lk for lk in leaks if lk.at_exit == "freed"]
    if freed and selfcheck_exe:
        records = memcheck(selfcheck_exe, os.path.join(out, prog.name + ".selfcheck.xml"))
        for lk in freed:
            fns = set(lk.functions)
            found = [r for r in records if r[0] == "Leak_DefinitelyLost" and holds(r[3], fns)]
            if found:
                found += [r for r in records
                          if r[0] == "Leak_IndirectlyLost" and holds(r[3], fns)]
                lines.append(f"  {'/'.join(lk.functions)}: freed at exit; with the list "
                             f"dropped, definitely lost, {sum(r[2] for r in found)} blocks, "
                             f"{sum(r[1] for r in found)} bytes")
            else:
                ok = False
                lines.append(f"  {'/'.join(lk.functions)}: freed at exit; with the list "
                             "dropped, NOT definitely lost")
    if not leaks:
        lines.append("  no leak: nothing lost" if ok else "  no leak, but memcheck disagrees")
    return ok, lines


def main(seeds, args, write, build, verify):
    failed = 0
    for s in seeds:
        prog = Program(s)
        src = write(prog, args.out)
        exe = build(prog, src, args.out, args)
        verify(prog, exe)
        write(prog, args.out)
        freed = any(c.leak.at_exit == "freed" for c in prog.leaks())
        sc = build(prog, src, args.out, args, self_check=True) if freed else None
        ok, lines = check_program(prog, exe, sc, args.out)
        failed += not ok
        kinds = ", ".join(f"{c.leak.shape.split(':')[0]} ({c.leak.at_exit})"
                          for c in prog.leaks()) or "leak-free"
        print(f"{prog.name} {prog.opt}: {kinds}: {'ok' if ok else 'FAILED'}")
        for line in lines:
            print(line)
    print(f"{len(seeds) - failed} of {len(seeds)} truths confirmed by memcheck")
    return 1 if failed else 0
