// Internal to models/: "did you mean" for workload names and gemm:/conv: keys. The distance is
// util/suggest's, case-insensitive; the threshold is looser than util's (names are short).
#pragma once

#include <string>
#include <vector>

namespace tessel::models::detail {

// Damerau-Levenshtein distance (a swap of neighbours costs 1), case-insensitive.
int editDistance(const std::string& a, const std::string& b);

// The closest candidate within max(2, |word|/3) edits, or "" when none is close. Ties go to the
// earlier candidate.
std::string closest(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace tessel::models::detail
