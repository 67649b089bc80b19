#include "models/suggest.h"

#include <algorithm>
#include <cctype>

#include "util/suggest.h"

namespace tessel::models::detail {

namespace {
std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

// util's Damerau-Levenshtein distance, made case-insensitive for workload names and keys.
int editDistance(const std::string& a, const std::string& b) {
  return tessel::editDistance(lower(a), lower(b));
}

std::string closest(const std::string& word, const std::vector<std::string>& candidates) {
  const int limit = std::max(2, static_cast<int>(word.size()) / 3);
  std::string best;
  int best_distance = limit + 1;
  for (const std::string& c : candidates) {
    int dist = editDistance(word, c);
    if (dist < best_distance) {
      best = c;
      best_distance = dist;
    }
  }
  return best;
}

}  // namespace tessel::models::detail
