// A fused group's lowering against its cost: every member's bytes per level and tensor, summed
// over the commands that carry them, are what the group cost counts.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "sim/analytical/fused_cost.h"
#include "sim/systemc/lower/fused.h"

namespace tessel::testing {

inline void expectMemberBytes(const sim::systemc::FusedLowering& low,
                              const sim::analytical::GroupCost& cost, size_t levels) {
  const sim::systemc::CommandStream& s = low.stream;
  for (size_t m = 0; m < cost.members.size(); ++m) {
    for (size_t l = 0; l < levels; ++l) {
      for (size_t t = 0; t < 3; ++t) {
        int64_t r = 0, w = 0;
        for (size_t a = 0; a < s.accesses.size(); ++a) {
          if (low.access_member[a] != m || s.accesses[a].level != l || s.accesses[a].tensor != t)
            continue;
          (s.accesses[a].write ? w : r) += s.accesses[a].bytes;
        }
        EXPECT_EQ(r, std::llround(cost.members[m].reads[l][t])) << m << " " << l << " " << t;
        EXPECT_EQ(w, std::llround(cost.members[m].writes[l][t])) << m << " " << l << " " << t;
      }
    }
  }
}

}  // namespace tessel::testing
