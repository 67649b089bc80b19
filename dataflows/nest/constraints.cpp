#include "dataflows/nest/constraints.h"

#include <algorithm>

#include "dataflows/nest/hardware.h"
#include "dataflows/nest/mapping.h"

namespace tessel::dataflows::nest {

namespace {

constexpr std::array<std::string_view, kRoles> kRoleNames{"dram", "l2", "local", "pe"};

bool listed(const std::vector<Dim>& v, Dim d) { return std::find(v.begin(), v.end(), d) != v.end(); }

}  // namespace

std::string_view nameOf(Role r) { return kRoleNames[static_cast<size_t>(r)]; }

std::optional<Role> roleFromName(std::string_view name) {
  for (size_t i = 0; i < kRoleNames.size(); ++i) {
    if (kRoleNames[i] == name) return static_cast<Role>(i);
  }
  return std::nullopt;
}

int levelOf(Role r, const Hardware& hw) {
  switch (r) {
    case Role::Dram:
      return hw.dram;
    case Role::L2:
      return hw.l2;
    case Role::Local:
      return hw.local();
    case Role::Pe:
      return hw.pe();
  }
  return -1;
}

bool orderAllowed(const std::vector<Dim>& order, const std::vector<std::vector<Dim>>& allowed) {
  if (allowed.empty()) return true;
  for (const std::vector<Dim>& pattern : allowed) {
    // The dims the pattern lists come first, in the pattern's relative order.
    std::vector<Dim> expect;
    for (Dim d : pattern) {
      if (listed(order, d)) expect.push_back(d);
    }
    if (std::equal(expect.begin(), expect.end(), order.begin())) return true;
  }
  return false;
}

void conformOrders(Mapping& m, const Constraints& c, const Hardware& hw) {
  for (int r = 0; r < kRoles; ++r) {
    const auto& allowed = c.orders[static_cast<size_t>(r)];
    const int l = levelOf(static_cast<Role>(r), hw);
    if (allowed.empty() || l < 0 || static_cast<size_t>(l) >= m.levels.size()) continue;
    auto& order = m.levels[static_cast<size_t>(l)].order;
    const std::vector<Dim> current(order.begin(), order.end());
    if (orderAllowed(current, allowed)) continue;
    std::vector<Dim> next;
    for (Dim d : allowed.front()) {
      if (listed(current, d)) next.push_back(d);
    }
    for (Dim d : current) {
      if (!listed(next, d)) next.push_back(d);
    }
    order = next;
  }
}

bool ordersAllowed(const Mapping& m, const Constraints& c, const Hardware& hw) {
  for (int r = 0; r < kRoles; ++r) {
    const int l = levelOf(static_cast<Role>(r), hw);
    if (l < 0 || static_cast<size_t>(l) >= m.levels.size()) continue;
    const auto& order = m.levels[static_cast<size_t>(l)].order;
    if (!orderAllowed(std::vector<Dim>(order.begin(), order.end()), c.orders[static_cast<size_t>(r)])) {
      return false;
    }
  }
  return true;
}

std::vector<Dim> axisDims(const std::vector<Dim>& listed, const Hardware& hw) {
  std::vector<Dim> dims = listed;
  if (!hw.systolic && std::find(dims.begin(), dims.end(), Dim::G) == dims.end()) dims.push_back(Dim::G);
  return dims;
}

std::string violation(const Mapping& m, const Constraints& c, const Hardware& hw, const Problem& p,
                      Blame* blame) {
  Blame ignored;
  Blame& b = blame != nullptr ? *blame : ignored;
  for (Dim d : kAllDims) {
    b = {hw.array(), true};
    if (m.rows[at(d)] > 1 && !listed(axisDims(c.rows, hw), d)) {
      return "it unrolls " + p.dimName(d) + " across array rows";
    }
    if (m.cols[at(d)] > 1 && !listed(axisDims(c.cols, hw), d)) {
      return "it unrolls " + p.dimName(d) + " across array columns";
    }
    b = {hw.pe(), false};
    if (!hw.systolic && m.levels[size_t(hw.pe())].factor[at(d)] > 1 && !listed(c.pe_loops, d)) {
      return "its PEs loop over " + p.dimName(d);
    }
  }
  static const char* const kTensor[] = {"inputs", "weights", "outputs"};
  for (size_t t = 0; t < kTensors; ++t) {
    if (m.levels[size_t(hw.pe())].keeps[t] && !c.pe_keeps[t]) {
      return std::string("its PEs keep ") + kTensor[t];
    }
  }
  for (int r = 0; r < kRoles; ++r) {
    const int l = levelOf(static_cast<Role>(r), hw);
    if (l < 0 || static_cast<size_t>(l) >= m.levels.size()) continue;
    b = {l, false};
    const auto& order = m.levels[static_cast<size_t>(l)].order;
    if (!orderAllowed(std::vector<Dim>(order.begin(), order.end()), c.orders[static_cast<size_t>(r)])) {
      return "its loop order at " + hw.levels[static_cast<size_t>(l)].name + " is not one of the allowed";
    }
  }
  b = {};
  return "";
}

}  // namespace tessel::dataflows::nest
