// SPDX-License-Identifier: GPL-2.0-or-later
// The command line of strata record and the --out-file pattern.
#include "record/record.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <fstream>

#include "strata_profile.hpp"

namespace strata::test {
namespace {

using Args = std::vector<std::string>;

// The message of the Error that parsing `args` throws.
std::string record_error(const Args& args) {
  try {
    parse_record_args(args);
  } catch (const Error& error) {
    EXPECT_EQ(error.file(), "");
    return error.what();
  }
  return "no error";
}

TEST(RecordArgs, Defaults) {
  RecordRequest request = parse_record_args({"ls", "-l"});
  EXPECT_FALSE(request.help);
  EXPECT_EQ(request.valgrind_args, (Args{"--out-file=strata.out.%p"}));
  EXPECT_EQ(request.program, (Args{"ls", "-l"}));
  EXPECT_EQ(request.out_file, "strata.out.%p");
}

TEST(RecordArgs, OursAndCoreOptionsAreForwarded) {
  RecordRequest request = parse_record_args(
      {"-q", "--depth=12", "--alloc-fn=my_alloc", "--trace-children=yes", "--alloc-fn=pool*",
       "--time-unit=B", "--peak-inaccuracy=0", "--stacks=yes", "-o", "out.%p", "prog"});
  EXPECT_EQ(
      request.valgrind_args,
      (Args{"-q", "--trace-children=yes", "--depth=12", "--alloc-fn=my_alloc", "--alloc-fn=pool*",
            "--time-unit=B", "--peak-inaccuracy=0", "--stacks=yes", "--out-file=out.%p"}));
  EXPECT_EQ(request.out_file, "out.%p");
  EXPECT_EQ(request.program, (Args{"prog"}));
}

TEST(RecordArgs, TheProgramsArgumentsAreItsOwn) {
  RecordRequest request = parse_record_args({"--", "sh", "-c", "echo", "--depth=3"});
  EXPECT_EQ(request.program, (Args{"sh", "-c", "echo", "--depth=3"}));
  request = parse_record_args({"--stats=yes", "sh", "--depth=3"});
  EXPECT_EQ(request.program, (Args{"sh", "--depth=3"}));
  EXPECT_EQ(request.valgrind_args, (Args{"--stats=yes", "--out-file=strata.out.%p"}));
  request = parse_record_args({"-ofile", "--depth=3", "--out-file=other", "--depth=4", "x"});
  EXPECT_EQ(request.out_file, "other");  // the last one, as for Valgrind
  EXPECT_EQ(request.valgrind_args, (Args{"--depth=4", "--out-file=other"}));
}

TEST(RecordArgs, Help) {
  EXPECT_TRUE(parse_record_args({"--help"}).help);
  EXPECT_TRUE(parse_record_args({"-h"}).help);
  std::ostringstream out;
  print_record_help(out);
  for (const char* text :
       {"--depth N (=30)", "--heap-admin N (=8)", "--time-unit U (=i)",
        "--peak-inaccuracy P (=1.0)", "--stacks yes|no (=no)", "--out-file ] FILE (=strata.out.%p)",
        "--trace-children", "--heap yes|no (=yes)", "--threshold PCT (=1.0)",
        "--massif-out-file FILE", "--detailed-freq N (=10)", "--max-snapshots N (=100)"}) {
    EXPECT_TRUE(contains(out.str(), text)) << text << "\n" << out.str();
  }
}

// A massif command line with `valgrind --tool=massif` replaced by `strata record`.
TEST(RecordArgs, MassifOptions) {
  RecordRequest request =
      parse_record_args({"--heap=no", "--stacks=yes", "--threshold=5", "--detailed-freq=1",
                         "--max-snapshots=10", "--massif-out-file=massif.out", "prog"});
  EXPECT_EQ(request.valgrind_args,
            (Args{"--heap=no", "--stacks=yes", "--threshold=5", "--detailed-freq=1",
                  "--max-snapshots=10", "--out-file=massif.out"}));
  EXPECT_EQ(request.out_file, "massif.out");
  request = parse_record_args({"--massif-out-file=a", "-o", "b", "prog"});
  EXPECT_EQ(request.out_file, "b");  // one option under two names: the last counts
  request = parse_record_args({"-o", "b", "--massif-out-file=a", "prog"});
  EXPECT_EQ(request.out_file, "a");
}

// The layout help2man reads: descriptions in one column, two spaces after the
// longest name; a longer name on a line of its own; nothing past column 79.
TEST(RecordArgs, HelpLayout) {
  std::ostringstream out;
  print_record_help(out);
  std::istringstream lines(out.str());
  std::string line;
  while (std::getline(lines, line)) {
    EXPECT_LE(line.size(), 79u) << line;
    EXPECT_FALSE(line.ends_with(' ')) << line;
  }
  const std::string column(32, ' ');  // "  --pages-as-heap yes|no (=no)" and two spaces
  EXPECT_TRUE(
      contains(out.str(), "\n  --depth N (=30)" + std::string(15, ' ') + "record at most N code"));
  EXPECT_TRUE(contains(out.str(), "\n  --pages-as-heap yes|no (=no)  profile pages mapped"));
  EXPECT_TRUE(contains(out.str(), "\n  -o [ --out-file ] FILE (=strata.out.%p)\n" + column +
                                      "write the profile to FILE;"));
  EXPECT_TRUE(contains(out.str(), "\n" + column + "allocation stack (1 to 200)\n"));
}

TEST(RecordArgs, BadOptionsNameTheOption) {
  struct Case {
    Args args;
    std::string error;
  } cases[] = {
      {{"--depth=0", "x"}, "--depth=0: must be between 1 and 200"},
      {{"--depth=201", "x"}, "--depth=201: must be between 1 and 200"},
      {{"--depth=ten", "x"}, "--depth=ten: must be between 1 and 200"},
      {{"--heap-admin=-1", "x"}, "--heap-admin=-1: must be between 0 and 1024"},
      {{"--time-unit=x", "x"}, "--time-unit=x: must be i, ms or B"},
      {{"--peak-inaccuracy=-1", "x"}, "--peak-inaccuracy=-1: must be a number of percent"},
      {{"--peak-inaccuracy=nan", "x"}, "--peak-inaccuracy=nan: must be a number of percent"},
      {{"--peak-inaccuracy=1e3", "x"}, "--peak-inaccuracy=1e3: must be a number of percent"},
      {{"--peak-inaccuracy=0x10", "x"}, "--peak-inaccuracy=0x10: must be a number of percent"},
      {{"--peak-inaccuracy=1.2.3", "x"}, "--peak-inaccuracy=1.2.3: must be a number of percent"},
      {{"--peak-inaccuracy=.", "x"}, "--peak-inaccuracy=.: must be a number of percent"},
      {{"-o", "--", "x"}, "-o: needs a file name, not '--'"},
      {{"-o", "-v", "x"}, "-o: needs a file name, not '-v'"},
      {{"--stacks=maybe", "x"}, "--stacks=maybe: must be yes or no"},
      {{"--pages-as-heap=1", "x"}, "--pages-as-heap=1: must be yes or no"},
      {{"--stats=", "x"}, "--stats: needs a value"},
      {{"--alloc-fn=", "x"}, "--alloc-fn: needs a value"},
      {{"--depth=3", "--depth=0", "x"}, "--depth=0: must be between 1 and 200"},
      {{"--out-file=a.%x", "x"}, "--out-file=a.%x: %x is not one of"},
      {{"--threshold=101", "x"}, "--threshold=101: must be a percentage, 0 to 100"},
      {{"--threshold", "x"}, "--threshold: needs a value"},
      {{"--heap=1", "x"}, "--heap=1: must be yes or no"},
      {{"--detailed-freq=0", "x"}, "--detailed-freq=0: must be between 1 and 1000000"},
      {{"--max-snapshots=9", "x"}, "--max-snapshots=9: must be between 10 and 1000"},
      {{"--massif-out-file", "x"}, "--massif-out-file: needs a value"},
      {{"--massif-out-file=a.%x", "x"}, "--massif-out-file=a.%x: %x is not one of"},
      {{"--tool=memcheck", "x"}, "--tool: strata record always runs the strata tool"},
      {{"--no-such-option", "x"}, "--no-such-option: not an option of strata record"},
      {{"--trace-children=perhaps", "x"}, "--trace-children=perhaps: must be yes or no"},
      {{"--trace-children", "x"}, "--trace-children: needs a value"},
      {{"--log-fd=x", "x"}, "--log-fd=x: must be a number"},
      {{"--vgdb=always", "x"}, "--vgdb=always: must be one of: no yes full"},
      {{"-q=3", "x"}, "-q=3: takes no value"},
      {{"--stacks=yes", "--pages-as-heap=yes", "x"}, "--pages-as-heap=yes: cannot be combined"},
      {{"-qv", "x"}, "-qv: not an option"},
      {{"--depth", "x"}, "--depth: needs a value (--depth=...)"},
      {{"--depth=3"}, "no program to run"},
      {{}, "no program to run"},
  };
  for (const Case& c : cases) {
    std::string error = record_error(c.args);
    EXPECT_TRUE(contains(error, c.error)) << error << "\n  does not hold: " << c.error;
    EXPECT_EQ(error.find('\n'), std::string::npos);
  }
}

// What Valgrind reads as a number: digits with at most one decimal point.
TEST(RecordArgs, Native) {
  RecordRequest request =
      parse_record_args({"--native", "--depth=12", "--trace-children=yes", "-o", "x.%p", "ls"});
  EXPECT_TRUE(request.native);
  EXPECT_TRUE(request.valgrind_args.empty());
  EXPECT_EQ(request.native_args, (Args{"--depth=12", "--out-file=x.%p", "--time-unit=ms",
                                       "--trace-children=yes"}));
  EXPECT_EQ(parse_record_args({"--native", "--time-unit=B", "ls"}).native_args,
            (Args{"--time-unit=B", "--out-file=strata.out.%p"}));
  EXPECT_EQ(record_error({"--native", "--time-unit=i", "ls"}),
            "--time-unit=i: there is no instruction counter with --native: use ms or B");
  EXPECT_EQ(record_error({"--native", "-q", "ls"}),
            "-q: a Valgrind option, not with --native (only --trace-children is)");
  EXPECT_EQ(record_error({"--native", "--stacks=yes", "ls"}),
            "--stacks=yes: not with --native (record under Valgrind)");
}

TEST(RecordArgs, PeakInaccuracyAsValgrindReadsIt) {
  for (const char* value : {"0", "1.5", ".5", "5.", "00001.2500", "1000000"}) {
    RecordRequest request = parse_record_args({std::string("--peak-inaccuracy=") + value, "x"});
    EXPECT_EQ(request.program, Args{"x"}) << value;
  }
}

TEST(RecordArgs, ValgrindCommand) {
  RecordRequest request = parse_record_args({"-v", "prog", "arg with space"});
  Args command = valgrind_command(request);
  ASSERT_EQ(command.size(), 6u);
  EXPECT_EQ(command[1], "--tool=strata");
  EXPECT_EQ(command[2], "-v");
  EXPECT_EQ(command[5], "arg with space");
  Args with_fd = valgrind_command(request, 5);
  ASSERT_EQ(with_fd.size(), 7u);
  EXPECT_EQ(with_fd[2], "--record-fd=5");
}

// ---- running -----------------------------------------------------------------

TEST(Run, ExitStatusSignalAndEnvironment) {
  EXPECT_EQ(run_valgrind("/lib/x", {"/bin/sh", "-c", "exit 5"}).status, 5);
  EXPECT_EQ(run_valgrind("/lib/x", {"/bin/sh", "-c", "kill -TERM $$"}).status, 128 + SIGTERM);
  EXPECT_EQ(run_valgrind("/lib/x", {"/bin/sh", "-c", "test \"$VALGRIND_LIB\" = /lib/x"}).status, 0);
  try {
    run_valgrind("/lib/x", {"/no/such/valgrind"});
    ADD_FAILURE() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()), "cannot run /no/such/valgrind: No such file or directory");
  }
}

TEST(Run, ToolDirectory) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("strata-unit-lib-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  setenv("STRATA_VALGRIND_LIB", dir.c_str(), 1);
  EXPECT_THROW(find_tool_dir(), Error);
  std::ofstream(dir / ("strata-" STRATA_PLATFORM)) << "tool";
  EXPECT_EQ(find_tool_dir(), dir.string());
  unsetenv("STRATA_VALGRIND_LIB");
  std::filesystem::remove_all(dir);
}

// An installed strata finds its tool the way from bindir to pkglibexecdir,
// from wherever it is: staged under a DESTDIR, or moved with its tree.
TEST(Run, InstalledToolDirectory) {
  using std::filesystem::path;
  EXPECT_EQ(installed_tool_dir("/stage/usr/local/bin/strata", "/usr/local/bin",
                               "/usr/local/libexec/strata"),
            path("/stage/usr/local/libexec/strata"));
  EXPECT_EQ(
      installed_tool_dir("/usr/local/bin/strata", "/usr/local/bin", "/usr/local/libexec/strata"),
      path("/usr/local/libexec/strata"));
  EXPECT_EQ(installed_tool_dir("/opt/s/bin/strata", "/usr/bin/", "/usr/lib/x86_64/strata"),
            path("/opt/s/lib/x86_64/strata"));
  EXPECT_EQ(installed_tool_dir("/d/opt/bin/strata", "/opt/bin", "/opt/bin/../libexec//strata"),
            path("/d/opt/libexec/strata"));
  // A bindir or pkglibexecdir that is not absolute leaves only the configured path.
  EXPECT_EQ(installed_tool_dir("/d/bin/strata", "bin", "/usr/libexec/strata"),
            path("/usr/libexec/strata"));
}

// ---- --out-file ------------------------------------------------------------------

TEST(OutFile, Expands) {
  setenv("STRATA_UNIT_VAR", "abc", 1);
  EXPECT_EQ(expand_out_file("strata.out.%p", 123), "strata.out.123");
  EXPECT_EQ(expand_out_file("d/x.%q{STRATA_UNIT_VAR}.%n.%p%%", 7), "d/x.abc.1.7%");
  EXPECT_NO_THROW(check_out_file("plain"));
}

TEST(OutFile, BadPatterns) {
  unsetenv("STRATA_UNIT_UNSET");
  for (const char* pattern :
       {"", "a%", "a%x", "%q", "%qX", "%q{}", "%q{UNCLOSED", "%q{STRATA_UNIT_UNSET}"}) {
    EXPECT_THROW(check_out_file(pattern), Error) << pattern;
  }
}

// A ledger note: its fields, each ended by a NUL.
std::string note(std::initializer_list<std::string> fields) {
  std::string text;
  for (const std::string& field : fields) text += field + '\0';
  return text;
}

// The ledger the tools write (st_write.c): profiles in order, those not
// created, the execs not taken back; a note cut short or unknown ends it.
TEST(Ledger, Notes) {
  std::string text = note({"P", "10", "/w/p"}) + note({"E", "10", "/bin/true"}) +
                     note({"F", "11", "/w/p.11", "Permission denied"}) +
                     note({"E", "12", "/bin/ls"}) + note({"e", "12"}) +
                     note({"P", "13", "/w/p.13"}) + "P" + '\0' + "14" + '\0' + "/w/p.14";
  LedgerNotes notes = parse_ledger(text);
  ASSERT_EQ(notes.profiles.size(), 2u);
  EXPECT_EQ(notes.profiles[0].pid, 10);
  EXPECT_EQ(notes.profiles[0].path, "/w/p");
  EXPECT_EQ(notes.profiles[1].path, "/w/p.13");
  ASSERT_EQ(notes.not_created.size(), 1u);
  EXPECT_EQ(notes.not_created[0].pid, 11);
  EXPECT_EQ(notes.not_created[0].reason, "Permission denied");
  ASSERT_EQ(notes.unprofiled_execs.size(), 1u);  // 12's exec failed
  EXPECT_EQ(notes.unprofiled_execs[0].program, "/bin/true");
  EXPECT_TRUE(parse_ledger(note({"X", "junk"})).profiles.empty());
  EXPECT_TRUE(parse_ledger("").profiles.empty());
}

// The ledger is a file that a child process inherits and appends to.
TEST(Ledger, InheritedAndRead) {
  Ledger ledger;
  pid_t pid = fork();
  if (pid == 0) {
    std::string text = note({"P", "7", "/w/x"});
    ssize_t n = write(ledger.fd(), text.data(), text.size());
    _exit(n == static_cast<ssize_t>(text.size()) ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  LedgerNotes notes = ledger.read();
  ASSERT_EQ(notes.profiles.size(), 1u);
  EXPECT_EQ(notes.profiles[0].path, "/w/x");
}

// The end of a profile: X, Q and its reason, or anything else (cut short).
TEST(OutFile, ProfileEnd) {
  std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("strata-unit-end-" + std::to_string(getpid()));
  auto end_of = [&](const std::string& text) {
    std::ofstream(file, std::ios::binary) << text;
    return profile_end(file.string());
  };
  EXPECT_EQ(end_of("strata-profile\t2\nT\tfinal\t5\t0\t0\t0\nE\nX\t5\n").kind,
            ProfileEnd::Kind::complete);
  ProfileEnd stopped = end_of("strata-profile\t2\nE\nQ\t7\tthe disk is full (ENOSPC)\n");
  EXPECT_EQ(stopped.kind, ProfileEnd::Kind::stopped);
  EXPECT_EQ(stopped.reason, "the disk is full (ENOSPC)");
  EXPECT_EQ(end_of("X\t5\n").kind, ProfileEnd::Kind::complete);  // one line only
  EXPECT_EQ(end_of(std::string(10000, 'x') + "\nX\t5\n").kind, ProfileEnd::Kind::complete);
  for (const char* cut : {"", "strata-profile\t2\nE\n", "E\nX\t5", "E\nQ\t7\n", "E\nXX\n"}) {
    EXPECT_EQ(end_of(cut).kind, ProfileEnd::Kind::cut_short) << cut;
  }
  std::filesystem::remove(file);
  EXPECT_EQ(profile_end(file.string()).kind, ProfileEnd::Kind::cut_short);  // no file
}

}  // namespace
}  // namespace strata::test
