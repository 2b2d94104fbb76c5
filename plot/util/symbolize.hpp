// SPDX-License-Identifier: GPL-2.0-or-later
// Code named from its object's debugging information (DWARF, read with
// elfutils' libdw), as `addr2line -f -i -e OBJECT OFFSET` names it: the
// functions inlined at that place, innermost first, each with the file and
// line it was at, then the function they were inlined into.
//
// It takes an object's path and a place in it, and knows nothing of
// profiles: the strata command names with it the frames Valgrind left
// unnamed (read/name_frames.hpp), and a recorder that writes only addresses
// and its modules can have the command name them at the end.  It reads
// files and never runs anything: an object that is missing, is not a
// regular file, is not ELF, or has no DWARF for the place (stripped, and no
// separate debugging file under /usr/lib/debug/.build-id) gives no frames.
// Each object is opened once, and kept open until the Symbolizer goes only
// when it has DWARF; at most kMaxObjects objects are read, and those beyond
// give nothing (a profile names its objects, and is data).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace strata {

// One frame of what the DWARF says is at a place.
struct SourceFrame {
  // An inlined function by its DW_AT_name (as Valgrind names inlined
  // frames); the function they are inlined into as Valgrind names it: by
  // the function symbol of the object's symbol table that holds the place,
  // demangled ("ns::f(int)"), else by its DWARF linkage name, demangled,
  // else its name; empty when neither gives one.  An object without DWARF
  // gives the symbol's frame alone, without a file or line.
  std::string function;
  std::string file;  // as the line table gives it (a path); empty without line information
  std::uint32_t line = 0;
};

class Symbolizer {
 public:
  Symbolizer();
  ~Symbolizer();
  Symbolizer(const Symbolizer&) = delete;
  Symbolizer& operator=(const Symbolizer&) = delete;

  // The frames at `offset` in `object` (an address as `addr2line -e
  // OBJECT` takes it: the address less the object's load bias), innermost
  // first, the last one the function that holds the code; empty when the
  // object or its DWARF cannot be read or says nothing of that place.
  std::vector<SourceFrame> frames(const std::string& object, std::uint64_t offset);

  // Whether `object` is loaded where its addresses say (an executable that
  // is not position-independent: ELF type ET_EXEC), so that an address in
  // it is its offset; false when it cannot be read.
  bool fixed_addresses(const std::string& object);

  // Reads `object`'s DWARF and its table of address ranges now, so that
  // the first `frames` in it does not (the native recorder's warm-up,
  // while the program runs: record.hpp, ObjectWarmer).
  void prepare(const std::string& object);

 private:
  struct Object;
  Object& open(const std::string& object);

  static constexpr std::size_t kMaxObjects = 256;
  std::map<std::string, std::unique_ptr<Object>> objects_;  // path -> what was read of it
  std::unique_ptr<Object> none_;  // what the objects beyond kMaxObjects give: nothing
};

}  // namespace strata
