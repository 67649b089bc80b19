#include "util/suggest.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace tessel {

// Lowrance-Wagner algorithm for the unrestricted Damerau-Levenshtein distance.
int editDistance(std::string_view a, std::string_view b) {
  const int n = static_cast<int>(a.size()), m = static_cast<int>(b.size());
  const int inf = n + m;
  // d has a sentinel row and column (index 0) holding `inf`, shifting strings by one more.
  std::vector<std::vector<int>> d(n + 2, std::vector<int>(m + 2, 0));
  d[0][0] = inf;
  for (int i = 0; i <= n; ++i) d[i + 1][0] = inf, d[i + 1][1] = i;
  for (int j = 0; j <= m; ++j) d[0][j + 1] = inf, d[1][j + 1] = j;
  std::array<int, 256> last_row{};  // last row where each byte occurred in `a`
  for (int i = 1; i <= n; ++i) {
    int last_col = 0;  // last column in this row where b matched a[i-1]
    for (int j = 1; j <= m; ++j) {
      const int i1 = last_row[static_cast<unsigned char>(b[j - 1])];
      const int j1 = last_col;
      const int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      if (cost == 0) last_col = j;
      d[i + 1][j + 1] = std::min({d[i][j] + cost, d[i + 1][j] + 1, d[i][j + 1] + 1,
                                  d[i1][j1] + (i - i1 - 1) + 1 + (j - j1 - 1)});
    }
    last_row[static_cast<unsigned char>(a[i - 1])] = i;
  }
  return d[n + 1][m + 1];
}

std::optional<std::string> closestMatch(std::string_view word,
                                        const std::vector<std::string>& candidates) {
  // Differing only in case ("KB" for "kB", "Capacity") beats any other near miss.
  for (const auto& c : candidates) {
    if (c.size() == word.size() && std::equal(c.begin(), c.end(), word.begin(), [](char x, char y) {
          return std::tolower(static_cast<unsigned char>(x)) ==
                 std::tolower(static_cast<unsigned char>(y));
        })) {
      return c;
    }
  }
  const int limit = std::max(1, static_cast<int>(word.size()) / 3);
  std::optional<std::string> best;
  int best_distance = limit + 1;
  for (const auto& c : candidates) {
    const int d = editDistance(word, c);
    // A distance as long as the word itself means nothing was recognized.
    if (d < best_distance && d < static_cast<int>(word.size())) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

std::string didYouMean(std::string_view word, const std::vector<std::string>& candidates) {
  auto match = closestMatch(word, candidates);
  return match ? "; did you mean '" + *match + "'?" : std::string();
}

std::string joinNames(const std::vector<std::string>& names, std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += separator;
    out += names[i];
  }
  return out;
}

}  // namespace tessel
