// SPDX-License-Identifier: GPL-2.0-or-later
// The headline policy of every leak finding and suspect, from the
// lifetimes or from the curves, in every file format: where a stack is named,
// the frame where the code can be fixed.  OwnCode (own_code.hpp) says which
// frames are the program's own; this says which of them heads a stack.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "analyze/own_code.hpp"
#include "model/model.hpp"

namespace strata {

inline constexpr std::size_t kWrapperFanIn = 3;  // a function allocating for 3 callers: a wrapper

// The headline of an allocation stack, for findings: the frame where the code
// can be fixed.
//   - The first frame in the program's own code (OwnCode), but a wrapper of
//     the program's own (a function called from kWrapperFanIn or more
//     functions over all the profile's stacks, a recursive call not
//     counted, such as xalloc(size, tag), or
//     a chain of functions each called from one, the last of them from
//     kWrapperFanIn or more: xmalloc called by tracked_alloc called by
//     zone_alloc), or a general allocator at the end of such a chain (a
//     method of a class named for an allocator, a pool or an arena,
//     allocator_class: PartPool::acquire; or a function named so,
//     allocator_named, such as pool_alloc or a C pool's pool_get, handing
//     out blocks of more than one size, or allocating for two functions or
//     more; or a constructor called from two functions or more), hands the
//     headline to its caller, unless that is main.
//   - An allocation hook of the program's own (a frame that calls the
//     allocator, through its known wrappers only, called by a library: the
//     allocator the program installed in libexif, brotli, protobuf-c or
//     cJSON) hands it to the first own frame beyond the library's, past its
//     wrappers, unless that is main: the code that called the library.
//   - With no own frame but the program's own source inlined into a
//     library's function (a worker's loop inlined into std::thread's
//     _M_run): the first such frame.
//   - With no own frame (a library's thread allocates): the first named
//     frame that is neither an allocator or a known wrapper nor called from
//     kWrapperFanIn places (gst_buffer_new_allocate, not g_malloc).
//   - Else the first named frame, else 0.
class FindingHeadlines {
 public:
  FindingHeadlines(const Model& model, const OwnCode& own);
  // The index of the headline in `frames` (a stack of the model's, innermost first).
  std::size_t headline(std::span<const FrameId> frames) const;
  // The frame of a free stack that holds the memory it frees: its outermost
  // own frame below main (the code that holds it, not its helper), else its
  // first own frame, else its headline as an allocation stack's.
  std::size_t holder(std::span<const FrameId> frames) const;
  // The frame of a free stack that does the freeing: its innermost own
  // frame that is not a wrapper of the program's frees (a function through
  // which kWrapperFanIn or more functions free, over all the free stacks,
  // such as xfree), else its first own frame; none without an own frame.
  std::optional<std::size_t> freer(std::span<const FrameId> frames) const;
  // The code that builds what an allocation stack allocates: the first
  // named frame beyond its headline (`head`), when it is the program's own
  // and not main; none otherwise.
  std::optional<std::size_t> builder(std::span<const FrameId> frames, std::size_t head) const;
  // The program's own named frames from the headline `head` out to main
  // (not included): the code an allocation stack is built by; none when
  // the headline itself is no code of the program's own (a library's
  // thread allocates), or is the only one and a library calls it (a
  // callback of an event loop, a thread's start function).
  std::optional<std::vector<std::size_t>> own_frames(std::span<const FrameId> frames,
                                                     std::size_t head) const;
  // Whether library code made what an allocation stack allocates: a frame
  // of a library's, not an allocator, below its headline `head` (the tree a
  // parser builds, a decoder's tables, called from the program's code).
  bool library_made(std::span<const FrameId> frames, std::size_t head) const;

 private:
  // Whether frames[i] is in a library (OwnCode::library, with each frame's own verdict cached).
  bool library(std::span<const FrameId> frames, std::size_t i) const;
  bool generic(FrameId frame) const;
  // From frames[i], the program's own, past its wrappers (see headline).
  std::size_t past_wrappers(std::span<const FrameId> frames, std::size_t i) const;

  const Model& model_;
  std::vector<bool> library_;             // FrameId -> in a library by itself
  std::vector<bool> own_source_;          // FrameId -> in the program's own source (OwnCode)
  std::vector<bool> named_allocator_;     // FrameId -> named as an allocator (allocator_named)
  std::vector<std::size_t> fan_in_;       // FrameId -> the distinct callers of its function
  std::vector<std::size_t> free_fan_in_;  // FrameId -> the same over the free stacks
};

}  // namespace strata
