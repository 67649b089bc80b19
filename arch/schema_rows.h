// Internal to arch/: the vocabulary the schema table (arch/schema.cpp) is written in. A row is
// req(...), opt(...) or der(...), tightened by pos, upTo or among; into(part, &member) stores the
// parsed value into one field of the spec under construction.
#pragma once

#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "arch/building.h"
#include "arch/schema.h"

namespace tessel::arch {

// ---- how a value lands in the spec --------------------------------------------------------

template <class F>
void assign(F& field, const Value& v) {
  if constexpr (std::is_same_v<F, uint64_t>) {
    field = v.bytes;
  } else if constexpr (std::is_same_v<F, int>) {
    if (v.number > INT_MAX) throw std::out_of_range("too large for this parameter");
    field = static_cast<int>(v.number);
  } else if constexpr (std::is_same_v<F, int64_t>) {
    field = static_cast<int64_t>(v.number);  // ValueType::Integer: within 2^20
  } else if constexpr (std::is_same_v<F, double>) {
    field = v.number;
  } else if constexpr (std::is_same_v<F, bool>) {
    field = v.flag;
  } else if constexpr (std::is_same_v<F, std::string>) {
    field = v.text;
  } else if constexpr (std::is_same_v<F, DType>) {
    field = v.dtype;
  } else {
    static_assert(std::is_same_v<F, std::vector<std::string>>, "no conversion for this field");
    field = v.names;
  }
}

inline int checkedInt(uint64_t bytes) {
  if (bytes > INT_MAX) throw std::out_of_range("too large for this parameter");
  return static_cast<int>(bytes);
}

// into(part, &Struct::member): an Apply storing the value into that member of that part.
template <class S, class F>
Apply into(S& (*part)(Building&), F S::*member) {
  return [part, member](Building& b, const Value& v) { assign(part(b).*member, v); };
}

inline Accelerator& top(Building& b) { return b.acc; }
inline StorageLevel& lvl(Building& b) { return b.level(); }
inline Dma& dma(Building& b) { return b.acc.dma; }
inline Controller& ctl(Building& b) { return b.acc.controller; }
inline ComputeArray& arr(Building& b) { return b.acc.array; }
inline Noc& noc(Building& b) { return b.acc.noc; }
inline Sfu& sfu(Building& b) { return *b.acc.sfu; }
inline Host& host(Building& b) { return b.acc.host; }
inline Cores& cores(Building& b) { return b.acc.cores; }
inline Layout& layout(Building& b) { return b.acc.layout; }
inline Floorplan& plan(Building& b) { return b.acc.floorplan; }

// ---- row builders -------------------------------------------------------------------------

inline ParamSpec req(std::string key, ValueType type, std::string description, Apply apply) {
  return {std::move(key), type, Need::Required,  "", std::move(description),
          false,          {},   std::move(apply)};
}
inline ParamSpec opt(std::string key, ValueType type, std::string yaml_default,
                     std::string description, Apply apply) {
  return {std::move(key), type, Need::Optional,  std::move(yaml_default), std::move(description),
          false,          {},   std::move(apply)};
}
inline ParamSpec der(std::string key, ValueType type, std::string how, std::string description,
                     Apply apply) {
  return {std::move(key), type, Need::Derived,   std::move(how), std::move(description),
          false,          {},   std::move(apply)};
}
inline ParamSpec pos(ParamSpec p) {
  p.positive = true;
  return p;
}
inline ParamSpec upTo(double max, ParamSpec p) {
  p.max = max;
  return p;
}
inline ParamSpec among(const std::vector<std::string>& names, ParamSpec p) {
  p.choices = names;
  return p;
}

}  // namespace tessel::arch
