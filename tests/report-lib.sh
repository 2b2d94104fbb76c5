# tests/report-lib.sh: sourced by tests/t-report*.sh after tests/lib.sh.
#
# The report tests record programs with strata and with stock massif, run
# `strata report --json`, and compare the leak suspects with the call sites
# that leak: each suspect is one line "KIND FUNCTION (FILE:LINE)", its
# innermost frame.

# The massif options that give massif.out files a leak report can use: every
# snapshot detailed (per-site data), no threshold, and enough snapshots that
# massif's thinning does not alias short-lived blocks into long-lived ones.
MASSIF_OPTS="--depth=30 --detailed-freq=1 --threshold=0 --time-unit=B --max-snapshots=1000"

# record_massif NAME PROGRAM [ARGS]: runs the program under stock massif;
# sets $massif to its file, $WORK/NAME.massif.
record_massif() {
   local name=$1
   shift
   massif=$WORK/$name.massif
   # shellcheck disable=SC2086
   valgrind --tool=massif $MASSIF_OPTS --massif-out-file="$massif" "$@" \
      >"$WORK/$name.massif.stdout" 2>"$WORK/$name.massif.stderr"
   expect_eq "$name: massif exits 0" "$?" 0
}

# report_json NAME FILE [OPTIONS]: strata report --json OPTIONS FILE into
# $WORK/NAME.json; it must exit 0 and print nothing on stderr.
report_json() {
   local name=$1 file=$2
   shift 2
   "$STRATA" report --json "$@" "$file" >"$WORK/$name.json" 2>"$WORK/$name.json.stderr"
   expect_eq "$name: strata report --json exits 0" "$?" 0
   expect_eq "$name: nothing on stderr" "$(cat "$WORK/$name.json.stderr")" ""
}

# suspects JSON-FILE: the suspects, most suspicious first, one a line.
suspects() {
   "$PYTHON" - "$1" <<'EOF'
import json, sys
for leak in json.load(open(sys.argv[1]))["leaks"]:
    frame = leak["frames"][0] if leak["frames"] else {"function": None, "file": None, "line": None}
    print(f'{leak["kind"]} {frame["function"]} ({frame["file"]}:{frame["line"]})')
EOF
}

# leak_field JSON-FILE FIELD: FIELD of each suspect, one a line.
leak_field() {
   "$PYTHON" - "$1" "$2" <<'EOF'
import json, sys
for leak in json.load(open(sys.argv[1]))["leaks"]:
    value = leak[sys.argv[2]]
    print(json.dumps(value) if isinstance(value, (bool, list, dict)) else value)
EOF
}

# expect_suspects WHAT JSON-FILE [EXPECTED-LINE...]: exactly these suspects,
# in this order (none when no line is given).
expect_suspects() {
   local what=$1 file=$2
   shift 2
   checks=$((checks + 1))
   if [ $# -gt 0 ]; then printf '%s\n' "$@"; fi >"$file.expected"
   suspects "$file" >"$file.suspects"
   if diff -u "$file.expected" "$file.suspects" >"$file.diff"; then
      pass "$what: suspects are ${*:-none}"
   else
      fail "$what: the suspects differ:"
      sed 's/^/   | /' "$file.diff"
   fi
}

# site FUNCTION SOURCE TAG: "FUNCTION (BASENAME:LINE)" for the line of SOURCE
# holding TAG.
site() {
   echo "$1 ($(basename "$2"):$(line_of "$2" "$3"))"
}
