#include "models/suggest.h"

#include <algorithm>
#include <cctype>

namespace tessel::models::detail {

int editDistance(const std::string& a, const std::string& b) {
  auto same = [&](size_t i, size_t j) {
    return std::tolower(static_cast<unsigned char>(a[i])) ==
           std::tolower(static_cast<unsigned char>(b[j]));
  };
  // d[i][j] = distance between the first i chars of a and the first j of b.
  std::vector<std::vector<int>> d(a.size() + 1, std::vector<int>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = static_cast<int>(i);
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (same(i - 1, j - 1) ? 0 : 1)});
      if (i > 1 && j > 1 && same(i - 1, j - 2) && same(i - 2, j - 1)) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
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
