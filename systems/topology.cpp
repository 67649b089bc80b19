#include "systems/topology.h"

#include <algorithm>

namespace tessel::systems {

std::string_view nameOf(DimKind k) {
  switch (k) {
    case DimKind::Ring: return "ring";
    case DimKind::Line: return "line";
    case DimKind::Switch: return "switch";
    case DimKind::FullyConnected: return "fully_connected";
  }
  return "?";
}

int64_t Topology::ranks() const {
  int64_t n = 1;
  for (const Dim& d : dims) n *= d.size;
  return n;
}

Topology Topology::group(int64_t n, std::string& why) const {
  why.clear();
  Topology g;
  g.kind = kind;
  int64_t filled = 1;
  std::vector<int64_t> sizes;  // the group sizes this placement allows, for the message
  for (const Dim& d : dims) {
    if (filled == n) break;
    for (int64_t k = 2; k <= d.size; ++k) sizes.push_back(filled * k);
    if (n % filled == 0 && n / filled <= d.size) {
      Dim part = d;
      part.size = static_cast<int>(n / filled);
      if (part.size < d.size && part.kind == DimKind::Ring) part.kind = DimKind::Line;
      g.dims.push_back(part);
      filled = n;
      break;
    }
    g.dims.push_back(d);
    filled *= d.size;
  }
  if (filled == n) return g;
  why = "a group of " + std::to_string(n) + " ranks does not fill whole inner dimensions of " +
        std::to_string(ranks()) + " chips; groups here are 1";
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i >= 6 && i + 3 < sizes.size()) {
      if (i == 6) why += ", ...";
      continue;
    }
    why += ", " + std::to_string(sizes[i]);
  }
  return {};
}

Network::Network(Topology t) : t_(std::move(t)) {
  int next = 0;
  for (Dim& d : t_.dims) {
    if (d.kind == DimKind::Ring && d.size <= 2) d.kind = DimKind::Line;  // one link each way
  }
  for (size_t i = 0; i < t_.dims.size(); ++i) {
    const Dim& d = t_.dims[i];
    stride_.push_back(ranks_);
    ranks_ *= d.size;
    first_.push_back(next);
    per_rank_.push_back(d.kind == DimKind::FullyConnected ? d.size : 2);
  }
  for (size_t i = 0; i < t_.dims.size(); ++i) {
    const int count = ranks_ * per_rank_[i];
    first_[i] = static_cast<int>(link_dim_.size());
    for (int k = 0; k < count; ++k) {
      link_dim_.push_back(static_cast<int>(i));
      // A switch's slot 1 is the receiver's down port: its crossing was charged going up.
      charged_.push_back(!(t_.dims[i].kind == DimKind::Switch && k % 2 == 1));
    }
  }
}

int Network::linkId(int d, int rank, int slot) const {
  return first_[static_cast<size_t>(d)] + rank * per_rank_[static_cast<size_t>(d)] + slot;
}

int Network::withCoordinate(int rank, int d, int c) const {
  return rank + (c - coordinate(rank, d)) * stride_[static_cast<size_t>(d)];
}

void Network::routeAlong(int d, int src, int dst, std::vector<int>& out) const {
  const Dim& dim = t_.dims[static_cast<size_t>(d)];
  const int a = coordinate(src, d), b = coordinate(dst, d);
  if (a == b) return;
  switch (dim.kind) {
    case DimKind::Switch:
      out.push_back(linkId(d, src, 0));
      out.push_back(linkId(d, withCoordinate(src, d, b), 1));
      return;
    case DimKind::FullyConnected:
      out.push_back(linkId(d, src, b));
      return;
    case DimKind::Ring:
    case DimKind::Line: {
      const int n = dim.size;
      const int forward = (b - a + n) % n;
      bool ahead = b > a;
      int hops = std::abs(b - a);
      if (dim.kind == DimKind::Ring) {
        ahead = forward <= n - forward;
        hops = ahead ? forward : n - forward;
      }
      int at = a;
      for (int h = 0; h < hops; ++h) {
        out.push_back(linkId(d, withCoordinate(src, d, at), ahead ? 0 : 1));
        at = (at + (ahead ? 1 : n - 1)) % n;
      }
      return;
    }
  }
}

void Network::route(int src, int dst, std::vector<int>& out) const {
  int at = src;
  for (int d = 0; d < static_cast<int>(t_.dims.size()); ++d) {
    const int next = withCoordinate(at, d, coordinate(dst, d));
    routeAlong(d, at, next, out);
    at = next;
  }
}

}  // namespace tessel::systems
