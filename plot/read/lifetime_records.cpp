// SPDX-License-Identifier: GPL-2.0-or-later
// The lifetime records (lifetime_records.hpp).
#include "read/lifetime_records.hpp"

#include <algorithm>
#include <bit>

namespace strata {

namespace {

constexpr std::uint64_t kMaxIndex = 63;  // at most 64 epochs

std::string text(std::uint64_t n) { return std::to_string(n); }

bool same_cell(const LifetimeCell& a, const LifetimeCell& b) {
  return a.birth == b.birth && a.death == b.death && a.freed_by == b.freed_by;
}

bool cell_before(const LifetimeCell& a, const LifetimeCell& b) {
  if (a.birth != b.birth) return a.birth < b.birth;
  if (a.death != b.death) return a.death < b.death;
  return a.freed_by < b.freed_by;
}

// Sums of bytes and blocks: a profile's bytes fit in 64 bits, so a sum that
// does not is a malformed file, not one that wraps around.
bool add_overflows(std::uint64_t& into, std::uint64_t more) {
  return __builtin_add_overflow(into, more, &into);
}

}  // namespace

void LifetimeRecords::begin(std::uint64_t index, std::uint64_t start, std::uint64_t length) {
  if (ended_alive_) {
    lines_.fail("L record after the record with a lines, which must be the last before X");
  }
  if (index > kMaxIndex) lines_.fail("epoch index " + text(index) + " beyond 63");
  if (!std::has_single_bit(length)) {
    lines_.fail("epoch length " + text(length) + " is not a power of two");
  }
  if (any_ && length < length_) {
    lines_.fail("epoch length " + text(length) + " is smaller than before (" + text(length_) + ")");
  }
  unsigned __int128 offset = static_cast<unsigned __int128>(index) * length;
  if (!any_ && offset > start) {
    lines_.fail("epoch " + text(index) + " of length " + text(length) + " cannot start at " +
                text(start) + " (before time 0)");
  }
  std::uint64_t t0 = any_ ? t0_ : start - static_cast<std::uint64_t>(offset);
  if (t0 + offset != start) {
    lines_.fail("epoch " + text(index) + " starts at " + text(start) + ", not at t0 + index * " +
                "length = " + text(static_cast<std::uint64_t>(t0 + offset)) + " (t0 " + text(t0) +
                ")");
  }
  if (any_ && start < previous_end_) {
    lines_.fail("epoch " + text(index) + " starts at " + text(start) +
                ", before the end of the previous one (" + text(previous_end_) + ")");
  }
  if (t0 + offset + length > UINT64_MAX) lines_.fail("epoch " + text(index) + " ends after 2^64-1");
  t0_ = t0;
  open_ = true;
  open_index_ = index;
  open_start_ = start;
  open_length_ = length;
  open_shift_ = static_cast<std::uint8_t>(std::countr_zero(length));
}

void LifetimeRecords::timed(std::uint64_t time) {
  if (!clock_.empty() && time < clock_.back().second) {
    lines_.fail("epoch " + text(open_index_) + " at time " + text(time) +
                ", before the epoch record before it (" + text(clock_.back().second) + ")");
  }
  open_time_ = time;
}

std::uint8_t LifetimeRecords::checked_birth(std::uint64_t birth, const char* record) const {
  if (birth > open_index_) {
    lines_.fail(std::string(record) + " line with birth epoch " + text(birth) +
                " after the record's epoch " + text(open_index_));
  }
  return static_cast<std::uint8_t>(birth);
}

void LifetimeRecords::check_once(std::vector<std::uint64_t>& seen, SiteId site, std::uint8_t birth,
                                 const char* record) {
  std::uint64_t& bits = seen[index(site)];
  std::uint64_t bit = std::uint64_t{1} << birth;
  if (bits & bit) {
    lines_.fail(std::string(record) + " line for site " + text(index(site) + 1) + ", birth epoch " +
                text(birth) + " given twice in one record");
  }
  if (born_seen_[index(site)] == 0 && alive_seen_[index(site)] == 0) {
    touched_.push_back(static_cast<std::uint32_t>(index(site)));
  }
  bits |= bit;
}

void LifetimeRecords::born(SiteId site, std::uint64_t birth, std::uint64_t bytes,
                           std::uint64_t blocks) {
  std::uint8_t epoch = checked_birth(birth, "b");
  check_once(born_seen_, site, epoch, "b");
  // Only a forked child's first record gives births before its own epoch:
  // the blocks it inherited (no byte was born in an epoch without a record).
  if (!any_ && epoch < open_index_ && bytes + blocks > 0) inherited_at_ = open_start_;
  pending_.push_back(
      {Kind::born, epoch, static_cast<std::uint32_t>(index(site)), bytes, blocks});
}

void LifetimeRecords::died(SiteId site, std::uint64_t birth, std::uint64_t stack,
                           std::uint64_t bytes, std::uint64_t blocks) {
  std::uint8_t epoch = checked_birth(birth, "d");
  if (stack > free_stacks_) lines_.fail("free stack " + text(stack) + " is not defined");
  // Kept with the site's cells at once, not as a pending line: a record
  // of deaths can be most of the file.  The record's E checks them.
  auto site_index = static_cast<std::uint32_t>(index(site));
  SiteLives& lives = touch(site_index);
  if (lives.record_from == kNotInRecord) {
    lives.record_from = lives.deaths.size();
    dying_.push_back(site_index);
  }
  // Grown by half, not doubled: the deaths are most of the memory read.
  if (lives.deaths.size() == lives.deaths.capacity()) {
    lives.deaths.reserve(lives.deaths.size() + lives.deaths.size() / 2 + 4);
  }
  lives.deaths.push_back({epoch, static_cast<std::uint8_t>(open_index_),
                          static_cast<std::uint32_t>(stack), bytes, blocks});
}

void LifetimeRecords::alive(SiteId site, std::uint64_t birth, std::uint64_t bytes,
                            std::uint64_t blocks) {
  std::uint8_t epoch = checked_birth(birth, "a");
  check_once(alive_seen_, site, epoch, "a");
  pending_.push_back(
      {Kind::alive, epoch, static_cast<std::uint32_t>(index(site)), bytes, blocks});
}

// A site's cells and balances, brought to the open record's epoch length:
// epochs 2j and 2j + 1 become j at each doubling.
LifetimeRecords::SiteLives& LifetimeRecords::touch(std::uint32_t site) {
  SiteLives& lives = sites_[site];
  if (lives.shift == open_shift_) return lives;
  unsigned by = open_shift_ - lives.shift;
  lives.shift = open_shift_;
  for (LifetimeCell& cell : lives.deaths) {
    cell.birth = static_cast<std::uint8_t>(cell.birth >> by);
    cell.death = static_cast<std::uint8_t>(cell.death >> by);
  }
  std::vector<Balance> merged;
  for (Balance b : lives.balances) {
    b.birth = static_cast<std::uint8_t>(b.birth >> by);
    if (!merged.empty() && merged.back().birth == b.birth) {
      merged.back().bytes += b.bytes;  // no overflow: below the births' total
      merged.back().blocks += b.blocks;
    } else {
      merged.push_back(b);
    }
  }
  lives.balances = std::move(merged);
  return lives;
}

LifetimeRecords::Balance& LifetimeRecords::balance(SiteLives& lives, std::uint8_t birth) {
  auto at = std::lower_bound(lives.balances.begin(), lives.balances.end(), birth,
                             [](const Balance& b, std::uint8_t e) { return b.birth < e; });
  if (at == lives.balances.end() || at->birth != birth)
    at = lives.balances.insert(at, {birth, 0, 0});
  return *at;
}

std::string LifetimeRecords::where(std::uint32_t site, std::uint8_t birth) const {
  return "epoch " + text(open_index_) + ": site " + text(site + 1) + ", birth epoch " + text(birth);
}

void LifetimeRecords::apply_births() {
  for (const Line& line : pending_) {
    if (line.kind != Kind::born) continue;
    // Every cell, balance and sum of them comes from births: their total
    // fitting in 64 bits, no sum made of them wraps around.
    if (add_overflows(born_bytes_, line.bytes) || add_overflows(born_blocks_, line.blocks)) {
      lines_.fail(where(line.site, line.birth) +
                  ": the births of the file add up to more than 2^64-1 bytes or blocks");
    }
    Balance& b = balance(touch(line.site), line.birth);
    b.bytes += line.bytes;
    b.blocks += line.blocks;
  }
}

// The open record's deaths, each site's sorted by (birth, free stack): no
// (birth, free stack) given twice, and none more than was born and alive.
void LifetimeRecords::apply_deaths() {
  for (std::uint32_t site : dying_) {
    SiteLives& lives = touch(site);
    auto first = lives.deaths.begin() + static_cast<std::ptrdiff_t>(lives.record_from);
    std::sort(first, lives.deaths.end(), cell_before);
    for (auto cell = first; cell != lives.deaths.end(); ++cell) {
      if (cell != first && same_cell(cell[-1], *cell)) {
        lines_.fail("d line for site " + text(site + 1) + ", birth epoch " + text(cell->birth) +
                    ", free stack " + text(cell->freed_by) + " given twice in one record");
      }
      Balance& b = balance(lives, cell->birth);
      if (cell->bytes > b.bytes || cell->blocks > b.blocks) {
        lines_.fail(where(site, cell->birth) + ": more died (" + text(cell->bytes) + " bytes, " +
                    text(cell->blocks) + " blocks) than were born and alive (" + text(b.bytes) +
                    " bytes, " + text(b.blocks) + " blocks)");
      }
      b.bytes -= cell->bytes;
      b.blocks -= cell->blocks;
    }
  }
}

// The end of the open record: its deaths are kept ('keep', at its E) or
// taken back (a record the file cut short).
void LifetimeRecords::forget_record_deaths(bool keep) {
  for (std::uint32_t site : dying_) {
    SiteLives& lives = sites_[site];
    if (!keep) lives.deaths.resize(lives.record_from);
    lives.record_from = kNotInRecord;
  }
  dying_.clear();
}

// The `a` lines must be every birth less every death: those given equal
// their balances, and every balance not zero has one.
void LifetimeRecords::check_alive() {
  std::size_t given = 0;
  for (const Line& line : pending_) {
    if (line.kind != Kind::alive) continue;
    ended_alive_ = true;
    Balance& b = balance(touch(line.site), line.birth);
    if (b.bytes != line.bytes || b.blocks != line.blocks) {
      lines_.fail(where(line.site, line.birth) + ": a line of " + text(line.bytes) + " bytes, " +
                  text(line.blocks) + " blocks, but births less deaths are " + text(b.bytes) +
                  " bytes, " + text(b.blocks) + " blocks");
    }
    if (b.bytes != 0 || b.blocks != 0) ++given;
  }
  if (!ended_alive_) return;
  std::size_t held = 0;
  for (std::uint32_t site = 0; site < sites_.size(); ++site) {
    for (const Balance& b : touch(site).balances) {
      if (b.bytes == 0 && b.blocks == 0) continue;
      ++held;
      if (held > given) {
        lines_.fail(where(site, b.birth) + ": " + text(b.bytes) + " bytes, " + text(b.blocks) +
                    " blocks born and not died, but no a line for them");
      }
    }
  }
}

void LifetimeRecords::end() {
  apply_births();
  apply_deaths();
  check_alive();
  any_ = true;
  open_ = false;
  index_ = open_index_;
  start_ = open_start_;
  length_ = open_length_;
  shift_ = open_shift_;
  previous_end_ = start_ + length_;
  if (open_time_) clock_.emplace_back(start_, *open_time_);
  open_time_.reset();
  std::vector<Line>().swap(pending_);  // a record's births can be many: memory back
  forget_record_deaths(true);
  for (std::uint32_t site : touched_) born_seen_[site] = alive_seen_[site] = 0;
  touched_.clear();
}

void LifetimeRecords::drop() {
  if (!any_) inherited_at_.reset();
  open_ = false;
  open_time_.reset();
  pending_.clear();
  forget_record_deaths(false);
  for (std::uint32_t site : touched_) born_seen_[site] = alive_seen_[site] = 0;
  touched_.clear();
}

void LifetimeRecords::at_exit() {
  if (!any_ || ended_alive_) return;
  open_shift_ = shift_;
  open_index_ = index_;
  for (std::uint32_t site = 0; site < sites_.size(); ++site) {
    for (const Balance& b : touch(site).balances) {
      if (b.bytes == 0 && b.blocks == 0) continue;
      lines_.fail("the last epoch record has no a lines, but site " + text(site + 1) +
                  ", birth epoch " + text(b.birth) + " has " + text(b.bytes) +
                  " bytes born and not died");
    }
  }
}

void LifetimeRecords::finish(Model& model) {
  Lifetimes& lifetimes = model.lifetimes;
  lifetimes.t0 = t0_;
  lifetimes.epoch_length = any_ ? length_ : 1;
  lifetimes.clock = clock_;
  lifetimes.inherited_at = inherited_at_;
  lifetimes.epochs = any_ ? static_cast<std::uint32_t>(index_ + 1) : 0;
  open_shift_ = shift_;
  for (std::uint32_t site = 0; site < sites_.size(); ++site) {
    SiteLives& lives = touch(site);
    std::vector<LifetimeCell> cells = std::move(lives.deaths);
    for (const Balance& b : lives.balances) {
      if (b.bytes != 0 || b.blocks != 0) cells.push_back({b.birth, kAlive, 0, b.bytes, b.blocks});
    }
    std::sort(cells.begin(), cells.end(), cell_before);
    std::vector<LifetimeCell>& merged = model.sites[site].cells;
    for (const LifetimeCell& cell : cells) {
      if (!merged.empty() && same_cell(merged.back(), cell)) {
        merged.back().bytes += cell.bytes;  // no overflow: below the births' total
        merged.back().blocks += cell.blocks;
      } else {
        merged.push_back(cell);
      }
    }
    merged.shrink_to_fit();
    lives = {};
  }
}

}  // namespace strata
