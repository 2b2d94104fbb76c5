// SPDX-License-Identifier: GPL-2.0-or-later
// The heap by age (ages.hpp).
#include "analyze/ages.hpp"

#include <algorithm>

#include "analyze/lifetimes.hpp"

namespace strata {

namespace {

// Each epoch's part of the run: its cycle (0 before the first, else from 1)
// when there are cycles, else its tenth of the run (from 0).
std::vector<std::size_t> epoch_parts(const Model& model, const Cycles& cycles, bool by_cycles) {
  const Lifetimes& l = model.lifetimes;
  std::vector<std::size_t> part(l.epochs);
  for (std::uint32_t b = 0; b < l.epochs; ++b) {
    if (by_cycles && !cycles.ticks.empty()) {  // placed by ticks (Marker::tick)
      std::uint64_t start = l.boundary_tick(b);
      part[b] = static_cast<std::size_t>(
          std::upper_bound(cycles.ticks.begin(), cycles.ticks.end(), start) - cycles.ticks.begin());
    } else if (by_cycles) {
      std::uint64_t start = l.boundary(b);
      part[b] = static_cast<std::size_t>(
          std::upper_bound(cycles.starts.begin(), cycles.starts.end(), start) -
          cycles.starts.begin());
    } else {
      part[b] = std::size_t{b} * kMaxAgeLayers / l.epochs;
    }
  }
  return part;
}

// The layers of the parts that hold an epoch, consecutive parts taken
// together so that there are at most kMaxAgeLayers.
std::vector<AgeLayer> layers_of(const std::vector<std::size_t>& part) {
  std::vector<AgeLayer> layers;
  for (std::uint32_t b = 0; b < part.size(); ++b) {
    if (layers.empty() || layers.back().last_cycle != part[b]) {
      layers.push_back({b, b + 1, part[b], part[b], 0, {}});
    }
    layers.back().to = b + 1;
  }
  if (layers.size() <= kMaxAgeLayers) return layers;
  std::size_t group = (layers.size() + kMaxAgeLayers - 1) / kMaxAgeLayers;
  std::vector<AgeLayer> grouped;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    if (i % group == 0) {
      grouped.push_back(layers[i]);
    } else {
      grouped.back().to = layers[i].to;
      grouped.back().last_cycle = layers[i].last_cycle;
    }
  }
  return grouped;
}

// The cycles each layer is named by: from the one under way at its first
// epoch's start to the one before the next layer's (the last layer: to the
// last cycle), so that the names cover every cycle, once.  A cycle shorter
// than an epoch starts and ends inside one: its bytes are that epoch's
// layer's, and so is its name.
void name_by_cycles(std::vector<AgeLayer>& layers, const Cycles& cycles) {
  for (std::size_t i = 0; i < layers.size(); ++i) {
    layers[i].last_cycle = i + 1 < layers.size() ? layers[i + 1].first_cycle - 1 : cycles.count();
  }
}

}  // namespace

AgeLayers age_layers(const Model& model, std::span<const SiteId> sites, const Cycles& cycles) {
  AgeLayers out;
  const Lifetimes& l = model.lifetimes;
  if (!model.has_lifetimes || l.epochs == 0) return out;
  out.by_cycles = cycles.count() >= 3;
  std::vector<std::size_t> part = epoch_parts(model, cycles, out.by_cycles);
  out.layers = layers_of(part);
  if (out.by_cycles) name_by_cycles(out.layers, cycles);
  std::vector<std::size_t> layer_of(l.epochs);
  for (std::size_t i = 0; i < out.layers.size(); ++i) {
    for (std::uint32_t b = out.layers[i].from; b < out.layers[i].to; ++b) layer_of[b] = i;
  }
  for (std::uint32_t k = 0; k <= l.epochs; ++k) out.times.push_back(boundary_time(model, k));
  // Diff arrays along the boundaries, summed below (modulo 2^64: the sums are exact).
  for (AgeLayer& layer : out.layers) layer.bytes.assign(l.epochs + 2, 0);
  for (SiteId site : sites) {
    for (const LifetimeCell& cell : model.site(site).cells) {
      AgeLayer& layer = out.layers[layer_of[cell.birth]];
      layer.born += cell.bytes;
      layer.bytes[cell.birth + 1] += cell.bytes;
      // Alive across the boundaries after its birth up to its death's
      // epoch's start; to the end (epochs) when never freed.
      std::size_t last = cell.alive() ? l.epochs : cell.death;
      layer.bytes[last + 1] -= cell.bytes;
    }
  }
  for (AgeLayer& layer : out.layers) {
    std::uint64_t held = 0;
    for (std::uint64_t& b : layer.bytes) b = held += b;
    layer.bytes.resize(l.epochs + 1);
  }
  return out;
}

std::vector<SiteId> sites_of_function(const Model& model, const std::string& function) {
  std::vector<bool> named(model.frames.size());
  for (std::size_t f = 0; f < model.frames.size(); ++f) {
    const std::string& name = model.frames[f].function;
    named[f] = name == function || (name.starts_with(function) && name.size() > function.size() &&
                                    name[function.size()] == '(');
  }
  std::vector<SiteId> out;
  for (std::size_t i = 0; i < model.sites.size(); ++i) {
    const std::vector<FrameId>& frames = model.sites[i].frames;
    if (std::any_of(frames.begin(), frames.end(),
                    [&](FrameId f) { return named.at(static_cast<std::size_t>(f)); })) {
      out.push_back(static_cast<SiteId>(i));
    }
  }
  return out;
}

}  // namespace strata
