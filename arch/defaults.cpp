// Need::Derived parameters the user left out. Each rule here is the one its schema row states.
#include <algorithm>

#include "arch/building.h"
#include "arch/schema.h"

namespace tessel::arch {
namespace {

// Energy per access relative to one MAC (Eyeriss: Chen, Emer, Sze, ISCA 2016): RF 1x,
// NoC / neighbouring PE 2x, global buffer 6x, DRAM 200x. One byte counts as one access;
// every on-chip SRAM level (L2, scratchpad, accumulator, global buffer) uses the buffer ratio.
constexpr double kRfRatio = 1;
constexpr double kNocRatio = 2;
constexpr double kSramRatio = 6;
constexpr double kDramRatio = 200;
constexpr double kSfuRatio = 1;  // assumed: one MAC-sized ALU operation per element per pass

bool isLocal(LevelKind k) {
  return k == LevelKind::Scratchpad || k == LevelKind::Accumulator || k == LevelKind::GlobalBuffer ||
         k == LevelKind::ClusterBuffer;
}

void deriveLevel(const Building& b, StorageLevel& l) {
  const ComputeArray& a = b.acc.array;
  const std::string p = l.name + ".";
  if (!b.isGiven(p + "dtype")) {
    l.dtype = l.kind == LevelKind::Accumulator ? a.accum_dtype : a.input_dtype;
  }
  if (l.kind == LevelKind::DRAM) l.holds = {true, true, true};
  if (l.kind == LevelKind::ClusterBuffer && !b.isGiven(p + "holds")) {
    const auto& c = l.tensor_capacity;
    l.holds = l.partitioned ? Holds{c[0] > 0, c[1] > 0, c[2] > 0} : Holds{true, true, true};
  }
  if (!b.isGiven(p + "row_width") && l.kind == LevelKind::Scratchpad) {
    l.row_bytes = a.cols * bytesOf(a.input_dtype);
  }
  if (!b.isGiven(p + "row_width") && l.kind == LevelKind::Accumulator) {
    l.row_bytes = a.cols * bytesOf(a.accum_dtype);
  }
  if (!b.isGiven(p + "bandwidth") && isLocal(l.kind)) {
    l.bandwidth = static_cast<double>(l.banks) * l.row_bytes;
  }
  const double ratio = l.kind == LevelKind::DRAM ? kDramRatio : kSramRatio;
  if (!b.isGiven(p + "read_energy")) l.read_energy_pj_per_byte = ratio * a.mac_energy_pj;
  if (!b.isGiven(p + "write_energy")) l.write_energy_pj_per_byte = ratio * a.mac_energy_pj;
}

// Host costs in sfuOpNames() order, so equal specs serialize (and hash) equally.
void sortHostCosts(Host& h) {
  const auto& order = sfuOpNames();
  auto rank = [&](const std::string& op) {
    return std::find(order.begin(), order.end(), op) - order.begin();
  };
  std::sort(h.cycles_per_element.begin(), h.cycles_per_element.end(),
            [&](const auto& x, const auto& y) { return rank(x.first) < rank(y.first); });
}

}  // namespace

void deriveDefaults(Building& b) {
  Accelerator& acc = b.acc;
  ComputeArray& a = acc.array;
  for (auto& l : acc.levels) deriveLevel(b, l);
  if (!b.isGiven("array.throughput")) a.macs_per_cycle = {{a.input_dtype, 1.0}};
  if (!b.isGiven("array.register_file_energy"))
    a.rf_energy_pj_per_byte = kRfRatio * a.mac_energy_pj;
  if (!b.isGiven("noc.energy")) acc.noc.energy_pj_per_byte = kNocRatio * a.mac_energy_pj;
  for (auto& l : acc.levels) {
    if (!b.isGiven(l.name + ".fanout.energy")) l.fanout.energy_pj_per_byte = acc.noc.energy_pj_per_byte;
  }
  if (!b.isGiven("array.register_energy")) a.reg_energy_pj_per_byte = a.rf_energy_pj_per_byte;
  if (acc.sfu && !b.isGiven("sfu.energy"))
    acc.sfu->energy_pj_per_element = kSfuRatio * a.mac_energy_pj;
  if (!b.isGiven("host.energy_per_byte"))
    acc.host.energy_pj_per_byte = acc.levels.at(0).read_energy_pj_per_byte;
  sortHostCosts(acc.host);
}

}  // namespace tessel::arch
