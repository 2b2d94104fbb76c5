// SPDX-License-Identifier: GPL-2.0-or-later
// The lifetime records of a strata profile (docs/format.md, "Lifetimes"): the
// epoch records `L index start length`, their `b`, `d` and `a` lines, and
// their `E`.  The reader of strata profiles (read_strata.cpp) parses the
// fields; this checks what the records say against each other and builds the
// lifetime cells of the model.
//
// A record takes effect at its E.  Until the file ends, the cells are kept
// in the epoch length of the record that gave them (each site remembers the
// length its cells are in, and is brought to a longer one when a record
// touches it): the cost is linear in the lines, not in the lines times the
// doublings.  At the end, every site is brought to the last length, its
// cells sorted and merged, and what is alive (births less deaths, which the
// `a` lines of the last record must equal) added as cells that never died.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "model/model.hpp"
#include "util/text.hpp"

namespace strata {

class LifetimeRecords {
 public:
  explicit LifetimeRecords(const LineReader& lines) : lines_(lines) {}

  // A site was defined (ids count up from 1).
  void add_site() {
    sites_.emplace_back();
    born_seen_.push_back(0);
    alive_seen_.push_back(0);
  }
  // A free stack was defined (P); `count` is how many there are now.
  void add_free_stack() { ++free_stacks_; }

  bool open() const { return open_; }

  // The lines of one epoch record, each an Error naming the line if wrong.
  void begin(std::uint64_t index, std::uint64_t start, std::uint64_t length);
  // The open record's time (opt epoch_unit): not before the one before.
  void timed(std::uint64_t time);
  void born(SiteId site, std::uint64_t birth, std::uint64_t bytes, std::uint64_t blocks);
  void died(SiteId site, std::uint64_t birth, std::uint64_t stack, std::uint64_t bytes,
            std::uint64_t blocks);
  void alive(SiteId site, std::uint64_t birth, std::uint64_t bytes, std::uint64_t blocks);
  void end();      // its E: the record is checked and takes effect
  void drop();     // a record left open by a file cut short
  void at_exit();  // X: the last record must have said what is alive

  // The cells into the sites of `model`, and its Lifetimes (but the free
  // stacks' frames, which the reader keeps).
  void finish(Model& model);

 private:
  // A (site, birth epoch)'s bytes and blocks born less died so far.
  struct Balance {
    std::uint8_t birth;
    std::uint64_t bytes;
    std::uint64_t blocks;
  };

  static constexpr std::size_t kNotInRecord = SIZE_MAX;

  struct SiteLives {
    std::uint8_t shift = 0;            // the log2 of the epoch length of its cells and balances
    std::vector<Balance> balances;     // sorted by birth
    std::vector<LifetimeCell> deaths;  // by record, not merged; the open record's last
    std::size_t record_from = kNotInRecord;  // where the open record's deaths begin
  };

  enum class Kind : std::uint8_t { born, alive };

  struct Line {
    Kind kind;
    std::uint8_t birth;
    std::uint32_t site;
    std::uint64_t bytes;
    std::uint64_t blocks;
  };

  std::uint8_t checked_birth(std::uint64_t birth, const char* record) const;
  void check_once(std::vector<std::uint64_t>& seen, SiteId site, std::uint8_t birth,
                  const char* record);
  SiteLives& touch(std::uint32_t site);
  Balance& balance(SiteLives& lives, std::uint8_t birth);
  void apply_births();
  void apply_deaths();
  void forget_record_deaths(bool keep);
  void check_alive();
  std::string where(std::uint32_t site, std::uint8_t birth) const;

  const LineReader& lines_;
  std::vector<SiteLives> sites_;  // SiteId -> its lifetimes so far
  std::uint64_t free_stacks_ = 0;
  std::uint64_t born_bytes_ = 0, born_blocks_ = 0;  // every b line's, so far

  bool any_ = false;          // a record was read (t0 is known)
  bool open_ = false;         // a record is open (after its L, before its E)
  bool ended_alive_ = false;  // the last record read had `a` lines
  // Lifetimes::inherited_at: set by the first record's births before its
  // epoch, and taken back if that record is dropped.
  std::optional<std::uint64_t> inherited_at_;
  std::uint64_t t0_ = 0;
  std::uint8_t shift_ = 0;                            // of the last record's length
  std::uint64_t index_ = 0, start_ = 0, length_ = 0;  // of the record open or last read
  std::uint64_t previous_end_ = 0;                    // where the last record's epoch ended
  std::optional<std::uint64_t> open_time_;            // the open record's time, if timed
  std::vector<std::pair<std::uint64_t, std::uint64_t>> clock_;  // Lifetimes::clock
  std::uint8_t open_shift_ = 0;
  std::uint64_t open_index_ = 0, open_start_ = 0, open_length_ = 0;
  std::vector<Line> pending_;                          // the open record's b and a lines
  std::vector<std::uint64_t> born_seen_, alive_seen_;  // SiteId -> births on a line (bits)
  std::vector<std::uint32_t> touched_;                 // the sites with such bits
  std::vector<std::uint32_t> dying_;                   // the sites with d lines in the record
};

}  // namespace strata
