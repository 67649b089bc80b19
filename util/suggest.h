// "Did you mean" suggestions for misspelled keys, units and names in user input.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessel {

// Damerau-Levenshtein distance: the fewest insertions, deletions, substitutions and swaps of
// adjacent characters turning `a` into `b` (unrestricted: a swapped pair may be edited again).
int editDistance(std::string_view a, std::string_view b);

// The candidate nearest to `word` when it is close enough to be a likely typo: one that differs
// only in case, else the nearest within max(1, |word| / 3) edits and fewer edits than |word|.
// Ties go to the earlier candidate.
std::optional<std::string> closestMatch(std::string_view word,
                                        const std::vector<std::string>& candidates);

// "; did you mean 'x'?" when closestMatch finds one, "" otherwise: ready to append to a message.
std::string didYouMean(std::string_view word, const std::vector<std::string>& candidates);

// "a, b, c": candidates joined for "accepted: ..." messages.
std::string joinNames(const std::vector<std::string>& names, std::string_view separator = ", ");

}  // namespace tessel
