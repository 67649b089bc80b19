// The interconnect of a system of chips as dimensions, innermost first: a ring is one ring
// dimension, a torus [4, 4, 4] three, a mesh three lines, a switch or a fully connected net one
// dimension each, and a hierarchical system its levels' dimensions stacked (the nodes' fabric
// inside, the fabric joining nodes outside). A rank's coordinates are its digits in these
// sizes; a message goes dimension by dimension (dimension-ordered routing), and along one
// dimension the way its kind allows:
//   ring            the shorter way round (a tie goes forward); each chip has a link to each
//                   neighbour per direction. A ring of two is a line: one link each way.
//   line            towards the destination, one hop per chip (a mesh's dimensions)
//   switch          the sender's port up, the receiver's port down; the crossing's latency and
//                   energy are counted once (on the way up), each port has the bandwidth
//   fully_connected one link per ordered pair
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::systems {

// One link, one direction.
struct Link {
  double bandwidth = 0;           // bytes per second
  double latency = 0;             // seconds per crossing
  double energy_pj_per_byte = 0;  // per byte per crossing
};

enum class DimKind : uint8_t { Ring, Line, Switch, FullyConnected };
std::string_view nameOf(DimKind k);

struct Dim {
  DimKind kind = DimKind::Ring;
  int size = 1;
  Link link;
  int level = 0;  // the level of a hierarchical system it belongs to (0 = the innermost)
};

struct Topology {
  std::string kind;  // as the system's YAML names it: ring, torus, mesh, switch, ...
  std::vector<Dim> dims;

  int64_t ranks() const;
  // The first `n` ranks as a topology of their own: whole inner dimensions, then part of one
  // (a ring's part is a line). Empty `why` on success; else why `n` cannot be placed so, with
  // the group sizes that can.
  Topology group(int64_t n, std::string& why) const;
};

// The directed links of a topology and the routes over them.
class Network {
 public:
  explicit Network(Topology t);

  const Topology& topology() const { return t_; }
  int ranks() const { return ranks_; }
  int links() const { return static_cast<int>(link_dim_.size()); }
  const Link& link(int id) const { return t_.dims[static_cast<size_t>(link_dim_[static_cast<size_t>(id)])].link; }
  // Whether crossing link `id` costs its latency and energy (a switch's down port does not).
  bool charged(int id) const { return charged_[static_cast<size_t>(id)]; }

  // The links a message from `src` to `dst` crosses, in order (appended to `out`).
  void route(int src, int dst, std::vector<int>& out) const;
  // The same, along dimension `d` only (the other coordinates stay `src`'s).
  void routeAlong(int d, int src, int dst, std::vector<int>& out) const;

  int coordinate(int rank, int d) const { return (rank / stride_[static_cast<size_t>(d)]) % t_.dims[static_cast<size_t>(d)].size; }
  // `rank` with its coordinate along `d` set to `c`.
  int withCoordinate(int rank, int d, int c) const;

 private:
  int linkId(int d, int rank, int slot) const;

  Topology t_;
  int ranks_ = 1;
  std::vector<int> stride_;     // per dim: ranks between neighbours along it
  std::vector<int> first_;      // per dim: its first link id
  std::vector<int> per_rank_;   // per dim: links each rank owns along it
  std::vector<int> link_dim_;   // per link: its dim
  std::vector<bool> charged_;   // per link
};

}  // namespace tessel::systems
