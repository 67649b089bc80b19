// What a dataflow allows, in loop-nest terms: which dims each array axis may unroll, which
// tensors a PE keeps in its register file, which dims a PE may loop over, and per level the loop
// orders it may take and the tensors that may bypass it. Read from the `nest:` section of
// configs/dataflows/*.yaml, or derived from a GEMM-only file's stationary/spatial/stream keys.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dataflows/nest/problem.h"

namespace tessel::dataflows::nest {

struct Hardware;
struct Mapping;
struct Blame;

// The levels a dataflow file can name, whatever the hardware calls them.
enum class Role : uint8_t { Dram, L2, Local, Pe };
inline constexpr int kRoles = 4;
std::string_view nameOf(Role r);                        // "dram", "l2", "local", "pe"
std::optional<Role> roleFromName(std::string_view name);
int levelOf(Role r, const Hardware& hw);  // index into Hardware::levels; -1 if absent

struct Constraints {
  std::vector<Dim> rows;  // dims that may be unrolled across array rows (first = preferred)
  std::vector<Dim> cols;  // and across columns
  std::array<bool, kTensors> pe_keeps{};  // tensors a PE may hold while its loops run
  std::vector<Dim> pe_loops;              // dims a PE may iterate over locally
  // Loop orders a level may take, outermost first: its order must keep the dims one of them
  // lists in that relative order, outside the dims it does not list. Empty = any order.
  std::array<std::vector<std::vector<Dim>>, kRoles> orders;
  // Tensors the mapper may stream past a level instead of keeping them there.
  std::array<std::array<bool, kTensors>, kRoles> bypass{};
};

// The dims an array axis may unroll on `hw`: the dataflow's list (c.rows or c.cols), and on a
// spatial array the groups. A group (depthwise channel, attention head) has its own inputs,
// weights and outputs, which a NoC that addresses PEs delivers to each PE; a systolic array's
// operands flow through every PE of a row or column, so it has no place for them.
std::vector<Dim> axisDims(const std::vector<Dim>& listed, const Hardware& hw);

// Does `order` (a level's loops, outermost first) follow one of `allowed`?
bool orderAllowed(const std::vector<Dim>& order, const std::vector<std::vector<Dim>>& allowed);
// `m` with every constrained level's order made to follow its first allowed order (the dims it
// lists first, in its order; the others after them in their current order).
void conformOrders(Mapping& m, const Constraints& c, const Hardware& hw);
bool ordersAllowed(const Mapping& m, const Constraints& c, const Hardware& hw);
// "" when `m` stays within `c` (spatial dims, what the PEs keep and loop over, loop orders);
// else the first thing it breaks, in the problem's dim names (and `blame`, when given, where).
std::string violation(const Mapping& m, const Constraints& c, const Hardware& hw, const Problem& p,
                      Blame* blame = nullptr);

}  // namespace tessel::dataflows::nest
