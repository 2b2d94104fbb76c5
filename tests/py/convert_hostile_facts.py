"""tests/py/convert_hostile_facts.py FOLDED LEAKS-FOLDED BACK-JSON MASSIF: facts
about tests/data/hostile-export.strata's exports (tests/t-convert.sh), one
a line as "FACT True|False": the two collapsed-stacks files (a newline at
the end, every line a stack and a count, main first, no control
character, the names come back), the massif.out read back (every name)
and each of its lines one of the format's."""

import json, re, sys
names = ['leak;here "q" \\ <script>alert(1)</script> ]]> $(touch /tmp/strata-PWNED-e1)',
         'a;b', '"', '\\', '<script>x</script> ]]>',
         'line\nbreak\r\ttab `touch /tmp/strata-PWNED-e2`']
def unescape(frame):
    return re.sub(r"\\(\\|n|r|t|x([0-9a-f]{2}))", lambda m: {"\\": "\\", "n": "\n", "r": "\r",
                  "t": "\t"}.get(m.group(1)) or chr(int(m.group(2), 16)), frame)
for path in sys.argv[1:3]:
    lines = open(path, newline="").read().split("\n")
    print("ends with a newline", lines[-1] == "")
    # flamegraph.pl: ^(.*)\s+?(\d+(?:\.\d*)?)$ then split on ';'
    stacks = [re.match(r"^(.*)\s+?(\d+(?:\.\d*)?)$", l) for l in lines[:-1]]
    print("every line a stack and a count", all(stacks))
    print("main first", all(s.group(1).startswith("main;") for s in stacks))
    print("no control character", not any(re.search(r"[\x00-\x1f]", l) for l in lines[:-1]))
    got = set(unescape(f) for s in stacks for f in s.group(1).split(";")[1:])
    print("the names come back", got <= set(names) and len(got) >= 1)
back = json.load(open(sys.argv[3]))
print("massif: every name read back",
      sorted(set(f["function"] for c in back["contexts"] for f in c["frames"]) - {"main"}) ==
      sorted(n.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t") for n in names))
# Every line of the massif.out file is one of massif's.
massif = re.compile(r"^(desc: .*|cmd: .*|time_unit: [a-zA-Z]+|#-----------|[a-z_A-Z]+=\w+|"
                    r" *n\d+: \d+ .*)$")
lines = open(sys.argv[4], newline="").read().split("\n")
print("massif: every line one of the format's", all(massif.match(l) for l in lines[:-1]))
