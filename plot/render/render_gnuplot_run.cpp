// SPDX-License-Identifier: GPL-2.0-or-later
// Running gnuplot: the script and its data go to a directory of their own (a
// temporary one, or the output's with --keep-script), gnuplot is started
// there with posix_spawnp (no shell), and its picture is moved to the output.
// No file written is the profile drawn; a stop signal kills gnuplot and
// removes the temporary directory before strata dies of it.
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "render/render_gnuplot.hpp"
#include "util/error.hpp"
#include "util/interrupt.hpp"
#include "util/output.hpp"

extern char** environ;

namespace fs = std::filesystem;

namespace strata {

// ---- the gnuplot process -------------------------------------------------------

namespace {

// The last line of gnuplot's complaints that says something.
std::string last_words(const std::string& text) {
  std::istringstream in(text);
  std::string line, last;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t^") != std::string::npos) last = line;
  }
  return last.empty() ? "no message" : last;
}

// Reads `fd` to its end.
std::string read_all(int fd) {
  std::string text;
  char buffer[4096];
  for (;;) {
    ssize_t n = read(fd, buffer, sizeof buffer);
    if (n > 0) {
      text.append(buffer, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      return text;
    }
  }
}

int wait_for(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw Error(std::string("waiting for gnuplot: ") + std::strerror(errno));
  }
  return status;
}

// Closes a file descriptor when it goes out of scope.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

// The file actions of gnuplot: stdin from /dev/null, stdout and stderr to the
// pipe, the working directory `directory`.
struct Actions {
  posix_spawn_file_actions_t actions;
  Actions(const std::string& directory, int pipe_read, int pipe_write) {
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, pipe_write, 1);
    posix_spawn_file_actions_adddup2(&actions, pipe_write, 2);
    posix_spawn_file_actions_addclose(&actions, pipe_read);
    posix_spawn_file_actions_addclose(&actions, pipe_write);
    posix_spawn_file_actions_addchdir_np(&actions, directory.c_str());
  }
  ~Actions() { posix_spawn_file_actions_destroy(&actions); }
};

// The attributes of gnuplot: the signal mask strata had before it held the
// stop signals back, and their default actions.
struct Attributes {
  posix_spawnattr_t attributes;
  explicit Attributes(const sigset_t& mask) {
    posix_spawnattr_init(&attributes);
    sigset_t defaults = stop_signals();
    posix_spawnattr_setsigmask(&attributes, &mask);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  }
  ~Attributes() { posix_spawnattr_destroy(&attributes); }
};

// Why gnuplot did not exit 0.
std::string failure(int status, const std::string& output) {
  if (WIFSIGNALED(status)) {
    int signal = WTERMSIG(status);
    const char* name = strsignal(signal);
    return "gnuplot was killed by signal " + std::to_string(signal) + " (" +
           (name ? name : "unknown") + ")" +
           (last_words(output) == "no message" ? "" : ": " + last_words(output));
  }
  return "gnuplot failed: " + last_words(output);
}

}  // namespace

std::string run_gnuplot(const std::string& directory, const std::string& script) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw Error(std::string("pipe: ") + std::strerror(errno));
  Fd read_end{fds[0]}, write_end{fds[1]};
  Actions actions(directory, fds[0], fds[1]);
  // -d: without the user's ~/.gnuplot, so that the picture is always the same.
  std::string program = "gnuplot", defaults = "-d", file = script;
  char* argv[] = {program.data(), defaults.data(), file.data(), nullptr};
  pid_t pid = 0;
  int failed = 0;
  {
    // A stop signal from here on kills gnuplot first (interrupt.hpp).
    HoldSignals hold;
    Attributes attributes(hold.original());
    failed = posix_spawnp(&pid, "gnuplot", &actions.actions, &attributes.attributes, argv, environ);
    if (failed == 0) kill_on_signal(pid);
  }
  if (failed == ENOENT) {
    throw Error(
        "gnuplot is not installed: install the package gnuplot-nox (apt-get install "
        "gnuplot-nox)");
  }
  if (failed != 0) throw Error(std::string("cannot run gnuplot: ") + std::strerror(failed));
  close(write_end.fd);
  write_end.fd = -1;
  std::string output = read_all(read_end.fd);
  int status = wait_for(pid);
  kill_on_signal(0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
    throw Error(
        "gnuplot is not installed: install the package gnuplot-nox (apt-get install "
        "gnuplot-nox)");
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw Error(failure(status, output));
  return output;
}

// ---- files ------------------------------------------------------------------------

namespace {

// The script and data, replaced whole (util/output.hpp): kept beside OUT,
// a full disk leaves the ones there as they were.
void write_file(const fs::path& path, const std::string& text) {
  ReplacedFile out(path.string());
  out.stream() << text;
  out.commit();
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path.string(), 0, "gnuplot wrote no picture");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A temporary directory, removed with what it holds when it goes out of
// scope, or when a stop signal comes (interrupt.hpp).
class TempDir {
 public:
  TempDir() : path_(make()), removed_(path_.string()) {}
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  static fs::path make() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/strata-plot.XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) {
      throw Error(std::string("cannot make a temporary directory: ") + std::strerror(errno));
    }
    return pattern;
  }

  fs::path path_;
  RemovedOnSignal removed_;
};

// The picture gnuplot drew at `from` as OUT, replaced whole (util/output.hpp,
// as convert and the page write theirs): a full disk leaves OUT as it was,
// and says so.
void write_picture(const fs::path& from, const std::string& to) {
  std::ifstream in(from, std::ios::binary);
  if (!in) throw Error(from.string(), 0, "gnuplot wrote no picture");
  ReplacedFile out(to);
  if (in.peek() != std::ifstream::traits_type::eof()) out.stream() << in.rdbuf();
  out.commit();
}

// The name the kept script and data take from the output: its stem, with
// any character gnuplot could read as code replaced by '_'.
std::string safe_stem(const fs::path& output) {
  std::string stem = output.stem().string();
  for (char& c : stem) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '+') c = '_';
  }
  return stem.empty() ? "graph" : stem;
}

std::string extension(GraphFormat format) {
  switch (format) {
    case GraphFormat::png:
      return ".png";
    case GraphFormat::pdf:
      return ".pdf";
    case GraphFormat::terminal:
      return ".txt";
    case GraphFormat::svg:
    case GraphFormat::html:
      break;
  }
  return ".svg";
}

void check_output_name(const std::string& output) {
  for (char c : output) {
    if (static_cast<unsigned char>(c) < 0x20) {
      throw Error(output, 0, "an output file name with a control character is not supported");
    }
  }
  fs::path parent = fs::path(output).parent_path();
  if (!parent.empty() && !fs::is_directory(parent)) {
    throw Error(output, 0, "cannot write: no directory " + parent.string());
  }
}

// Where gnuplot works: a temporary directory, or the output's with
// --keep-script; the names of its script, data and picture there.
struct Workspace {
  std::optional<TempDir> temp;
  fs::path directory;
  std::string stem = "graph";
  std::string picture;

  fs::path script() const { return directory / (stem + ".gp"); }
  fs::path data() const { return directory / (stem + ".dat"); }
};

void prepare(Workspace& work, const GraphOptions& options) {
  fs::path output(options.output);
  if (options.keep_script) {
    work.directory = output.parent_path().empty() ? fs::path(".") : output.parent_path();
    work.stem = safe_stem(output);
    work.picture = output.filename().string();
  } else {
    work.temp.emplace();
    work.directory = work.temp->path();
    work.picture = work.stem + extension(options.format);
  }
}

// Whether `a` and `b` name one existing file (the same device and inode:
// a link or another path to it is the same file).
bool same_file(const fs::path& a, const fs::path& b) {
  struct stat sa {};
  struct stat sb {};
  return stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

// The graph, its kept script and data (and the SVG an HTML page's script
// draws) must not be written over the profile drawn.
void refuse_overwriting_input(const Workspace& work, const GraphOptions& options) {
  if (options.input.empty()) return;
  if (options.format != GraphFormat::terminal && same_file(options.output, options.input)) {
    throw Error(options.output, 0,
                "the graph would be written over the profile being drawn: choose another OUT");
  }
  if (!options.keep_script) return;
  for (const fs::path& kept : {work.script(), work.data(), work.directory / work.picture}) {
    if (same_file(kept, options.input)) {
      throw Error(kept.string(), 0,
                  "--keep-script would write the gnuplot " +
                      std::string(kept == work.script() ? "script" : "data") +
                      " over the profile being drawn (the kept files are named after OUT): choose "
                      "another OUT");
    }
  }
}

}  // namespace

std::optional<KeptScript> render_graph(const PlotData& data, const GraphOptions& options) {
  check_output_name(options.output);
  Workspace work;
  prepare(work, options);
  refuse_overwriting_input(work, options);
  GnuplotJob job = gnuplot_job(data, options, work.stem + ".dat", work.picture);
  write_file(work.script(), job.script);
  write_file(work.data(), job.data);
  run_gnuplot(work.directory.string(), work.stem + ".gp");
  if (options.format == GraphFormat::terminal) {
    std::string text = read_file(work.directory / work.picture);
    if (text.starts_with('\f')) text.erase(0, 1);  // the dumb terminal's form feed
    // Written and checked in main (util/output.hpp); the legend below.
    // (gnuplot's last line is its reset of the colours alone: it goes last.)
    std::string plot = terminal_output(text, options);
    std::size_t newline = plot.rfind('\n');
    std::string last = plot.substr(newline == std::string::npos ? 0 : newline + 1);
    bool escapes_only = last.starts_with('\x1b') && last.ends_with('m') &&
                        last.find_first_of(" \t") == std::string::npos;
    if (escapes_only) plot.resize(plot.size() - last.size());
    std::cout << plot << (plot.empty() || plot.ends_with('\n') ? "" : "\n");
    for (const std::string& line : job.key) std::cout << line << '\n';
    if (escapes_only) std::cout << last;
  } else if (!options.keep_script) {
    write_picture(work.directory / work.picture, options.output);
  }
  if (!options.keep_script) return std::nullopt;
  return KeptScript{work.script().string(), work.data().string()};
}

}  // namespace strata
