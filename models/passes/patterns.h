// Internal to models/passes: one finder per pattern. Each looks at one candidate anchor op and
// returns the match it roots, or nullopt; recognize.cpp decides which matches apply.
#pragma once

#include <optional>

#include "models/passes/match.h"

namespace tessel::models::passes {

std::optional<Match> findLayerNorm(const Matcher& m, const Op& sub);      // anchor: Sub
std::optional<Match> findRmsNorm(const Matcher& m, const Op& square);     // anchor: Pow / Mul
std::optional<Match> findGelu(const Matcher& m, const Op& mul);           // anchor: Mul
std::optional<Match> findSilu(const Matcher& m, const Op& mul);           // anchor: Mul
std::optional<Match> findHardSwish(const Matcher& m, const Op& mul);      // anchor: Mul
std::optional<Match> findAttention(const Matcher& m, const Op& softmax);  // anchor: Softmax

}  // namespace tessel::models::passes
