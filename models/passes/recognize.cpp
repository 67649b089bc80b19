#include "models/passes/recognize.h"

#include <algorithm>
#include <set>
#include <vector>

#include "models/passes/patterns.h"
#include "models/passes/rewrite.h"

namespace tessel::models {

namespace {

using passes::Match;
using passes::Matcher;
using Finder = std::optional<Match> (*)(const Matcher&, const Op&);

// Whether applying `match` keeps every other op's inputs: a dropped op's outputs must be read
// only inside the match (and by someone: a graph output is never dropped), and a replacement
// may not read what a dropped op produced.
bool selfContained(const Graph& g, const Match& match) {
  const std::set<int> inside(match.ops.begin(), match.ops.end());
  std::set<int> gone;
  for (int id : match.ops) {
    if (match.replaced.count(id)) continue;
    for (int t : g.op(id).outputs) {
      const std::vector<int> readers = g.consumersOf(t);
      if (readers.empty()) return false;
      for (int r : readers) {
        if (!inside.count(r)) return false;
      }
      gone.insert(t);
    }
  }
  for (const auto& [id, op] : match.replaced) {
    for (int t : op.inputs) {
      if (gone.count(t)) return false;
    }
  }
  return true;
}

// Applies one finder at every unclaimed op, in order, keeping matches that touch no claimed op.
void collect(const Graph& g, const Matcher& m, Finder find, std::vector<char>& claimed,
             Rewrite& rewrite, std::vector<std::string>& warnings) {
  for (const Op& anchor : g.ops()) {
    if (claimed[static_cast<size_t>(anchor.id)]) continue;
    std::optional<Match> match = find(m, anchor);
    if (!match) continue;
    std::sort(match->ops.begin(), match->ops.end());
    match->ops.erase(std::unique(match->ops.begin(), match->ops.end()), match->ops.end());
    const bool taken = std::any_of(match->ops.begin(), match->ops.end(),
                                   [&](int id) { return claimed[static_cast<size_t>(id)]; });
    if (taken || !selfContained(g, *match)) continue;
    // An unverifiable match still claims its ops: a smaller pattern inside it (the RMS part of
    // a LayerNorm) hinges on the same constants and would only repeat the warning.
    for (int id : match->ops) claimed[static_cast<size_t>(id)] = 1;
    if (!match->unverified.empty()) {
      warnings.push_back(match->pattern + " at op '" + g.op(match->ops.back()).name +
                         "' left as primitive ops: the value of constant '" + match->unverified +
                         "' is not available");
      continue;
    }
    for (int id : match->ops) {
      if (!match->replaced.count(id)) rewrite.dropped.insert(id);
    }
    for (auto& [id, op] : match->replaced) rewrite.replaced.emplace(id, std::move(op));
  }
}

}  // namespace

Graph recognizePatterns(const Graph& g) {
  // Norms first: their squares and scales are Muls the activation finders would otherwise
  // inspect. Attention last: it only reads ops the others never take.
  static const Finder kFinders[] = {passes::findLayerNorm, passes::findRmsNorm,
                                    passes::findGelu,      passes::findSilu,
                                    passes::findHardSwish, passes::findAttention};
  const Matcher m(g);
  std::vector<char> claimed(g.ops().size(), 0);
  Rewrite rewrite;
  std::vector<std::string> warnings;
  for (Finder find : kFinders) collect(g, m, find, claimed, rewrite, warnings);
  Graph out = applyRewrite(g, rewrite);
  out.warnings.insert(out.warnings.end(), warnings.begin(), warnings.end());
  return out;
}

}  // namespace tessel::models
