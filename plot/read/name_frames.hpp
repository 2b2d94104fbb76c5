// SPDX-License-Identifier: GPL-2.0-or-later
// Frames Valgrind could not name, named from their objects' DWARF
// (util/symbolize.hpp) once a profile is read.
//
// Valgrind names an inlined function `UnknownInlinedFun` when its
// definition is in another unit than the code it was inlined into (LTO
// builds), and leaves a frame's function empty when the object has no
// symbol for it.  Such a frame, with its object and its offset in it (the F
// record's fields; a massif.out file gives neither, so its frames are named
// only in an object loaded at its own addresses, ET_EXEC), gets the names
// `addr2line -f -i -e OBJECT OFFSET` gives: the inlined functions in
// order, and the function that holds them.  A frame alone at its address
// with no name and no line (Valgrind read no DWARF there) becomes the
// whole chain: its inlined functions become frames of their own, inlined
// into it, in every stack that holds it.
//
// The object read now must be the one recorded.  The profile cannot say
// (it holds no build ID), so it is checked against what Valgrind read
// then: at every address named, and at up to kEvidence more addresses of
// the same object when those named have nothing to check, the chain must
// have as many frames as Valgrind wrote (or one, when Valgrind read no
// inline information), with the same lines (and files, by name, but for a
// file that differs at the same line: Valgrind can give an inlined chain's
// innermost frame its caller's file, as in an LTO build's std::vector of
// nlohmann::json, and that is no evidence either way), the same
// names where Valgrind gave them to inlined frames, and, where Valgrind
// read no line, the function that holds the code must be named as its
// symbol was (the last name of each, without scope, arguments or clone
// suffix).  One address that differs and the object is not used at all;
// an object with nothing to check against is not used either.  Frames not
// named stay as they were: object+0xOFFSET, or UnknownInlinedFun.
#pragma once

#include <cstddef>

#include "model/model.hpp"
#include "util/symbolize.hpp"

namespace strata {

// What name_frames did.
struct NamingCounts {
  std::size_t named = 0;    // frames given a function
  std::size_t added = 0;    // inlined frames added
  std::size_t objects = 0;  // objects used
  std::size_t refused = 0;  // objects not used: they differ from what was recorded
};

constexpr std::size_t kEvidence = 16;

// Names the frames of `model` that Valgrind left unnamed, where their
// objects' DWARF can (see above); changes nothing else.  Reads no object
// when every frame has a name.
NamingCounts name_frames(Model& model, Symbolizer& symbolizer);

// Sets Frame::system_source of the frames of `model` in a header (.h, .hh,
// .hpp) of an object outside the system's directories (system_object:
// its code is a library's anyway) whose object's DWARF, at the frame's place, gives that header (by
// name and line) under a system include directory: /usr/include/,
// /usr/local/include/ or GCC's own (/usr/lib/gcc/).  Valgrind writes a
// file without its directory, and a header-only library's templates
// (nlohmann/json, Boost.Serialization) are compiled into the program as its
// own functions; their directory says whose code they are.
void mark_system_sources(Model& model, Symbolizer& symbolizer);

}  // namespace strata
