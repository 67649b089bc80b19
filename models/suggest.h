// Internal to models/: "did you mean" for workload names and gemm:/conv: keys.
// (util/ will grow a shared one; this stays private and small until then.)
#pragma once

#include <string>
#include <vector>

namespace tessel::models::detail {

// Optimal-string-alignment distance (a swap of neighbours costs 1), case-insensitive.
int editDistance(const std::string& a, const std::string& b);

// The closest candidate within max(2, |word|/3) edits, or "" when none is close. Ties go to the
// earlier candidate.
std::string closest(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace tessel::models::detail
