"""tests/py/plot_terminal_wide.py OUT: writes OUT, a profile whose functions
are named in CJK, emoji and with a combining mark (tests/t-plot-terminal.sh)."""

import sys
lines = ["strata-profile\t2", "cmd\t./wide", "pid\t1", "ppid\t0", "time_unit\ti",
         "F\t1\t0x401000\t0\t%s\twide.c\t1\t/bin/w\t" % ("\u6f22\u5b57" * 100),
         "F\t2\t0x401010\t0\tcall_%s_x\twide.c\t2\t/bin/w\t" % ("\U0001f389" * 90),
         "F\t3\t0x401020\t0\tmix_e\u0301_\u6f22\U0001f389_end\twide.c\t3\t/bin/w\t",
         "F\t4\t0x401030\t0\tmain\twide.c\t9\t/bin/w\t",
         "S\t1\t1\t4", "S\t2\t2\t4", "S\t3\t3\t4",
         "T\tregular\t10\t600\t0\t0", "s\t1\t300\t1\t0\t300", "s\t2\t200\t1\t0\t200",
         "s\t3\t100\t1\t0\t100", "E", "T\tregular\t20\t300\t0\t0", "s\t1\t150\t1\t150\t300",
         "E", "X\t30"]
open(sys.argv[1], "w", encoding="utf-8").write("\n".join(lines) + "\n")
