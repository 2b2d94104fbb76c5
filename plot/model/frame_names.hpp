// SPDX-License-Identifier: GPL-2.0-or-later
// Frame names for people, in one place: the report, the graph's legends and
// the JSON document name a frame the same way.
//
// A frame with a symbol is its function.  One without is `object+0xOFFSET`,
// the basename of its object and where the address is in it, which
// `addr2line -e OBJECT 0xOFFSET` takes (cc1plus+0x1b6a652): the offset the
// profile gives, else the address itself (right for executables not built as
// position-independent).  Without an object either, it is the address alone.
//
// A function GCC cloned is named as the function it was cloned from, in
// every word shown of it (the headlines of the report, text and JSON, the
// graph's legends and the page, the sentences about a finding):
// frame_name() and frame_text() drop the clone's suffixes (foo.isra.0,
// foo.constprop.0, foo.part.1, foo.cold, foo.lto_priv.0 and combinations;
// "f(int) [clone .isra.0]" as C++ names are demangled).  The frames keep
// their symbols, which the full stacks show (stack_frame_text(),
// frame_symbol(); the JSON's "function").
//
// The graph's legends name functions shortly: no C++ argument lists, and
// long template arguments abbreviated (std::vector<…>::push_back).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/model.hpp"

namespace strata {

// "0x1b6a652".
std::string hex_address(std::uint64_t address);

// Where the frame is in its object: Frame::offset, else its address when the
// object is known; nullopt without an object.
std::optional<std::uint64_t> object_offset(const Frame& frame);

// "cc1plus+0x1b6a652", or "0x1b6a652" without an object.
std::string unnamed_frame(const Frame& frame);

// The function a clone of GCC's was made from: `symbol` without its clone
// suffixes (".isra.N", ".constprop.N", ".part.N", ".lto_priv.N", ".cold",
// or C++'s " [clone .isra.N]"), as many as it has; unchanged otherwise.
std::string_view function_of_clone(std::string_view symbol);

// The function as the profile names it (the symbol), or unnamed_frame()
// when the symbol is unknown: for the full stacks.
std::string frame_symbol(const Frame& frame);

// The function's full name, as people know it (function_of_clone()), or
// unnamed_frame() when the symbol is unknown: for headlines, legends and words.
std::string frame_name(const Frame& frame);

// A function name for a legend: without its argument list (and a trailing
// " const"), and with each template argument list longer than
// kLongTemplateArguments characters shown as <…>.
std::string short_function(std::string_view name);

constexpr std::size_t kLongTemplateArguments = 12;

// A frame as the words of the text report and strata diff name it (a
// headline, a freer): "function (file:line)" (frame_name()), "function (in
// object)" without line information, " [inlined]" after one inlined into the
// next; its control characters escaped (shown()).
std::string frame_text(const Frame& frame);

// A frame of a full stack: frame_text() with the symbol (frame_symbol()).
std::string stack_frame_text(const Frame& frame);

// Whether `object` is under the system's directories of libraries and
// programs (/lib, /lib64, /usr/lib, /usr/lib64, /usr/libexec): a library's
// code, unless it is the program itself.
bool system_object(std::string_view object);

// Whether `file` is a header by its name (.h, .hh, .hpp).
bool header_file(std::string_view file);

}  // namespace strata
