#include "dataflows/nest/mapping.h"

#include <algorithm>

namespace tessel::dataflows::nest {

int64_t Mapping::tile(int level, Dim d, int array) const {
  int64_t t = level <= array ? spatial(d) : 1;
  for (size_t l = static_cast<size_t>(level); l < levels.size(); ++l) {
    t *= levels[l].factor[at(d)] * levels[l].spatial[at(d)];
  }
  return t;
}

Factors Mapping::tileAt(int level, int array) const {
  Factors f = kOnes;
  for (Dim d : kAllDims) f[at(d)] = tile(level, d, array);
  return f;
}

int64_t Mapping::allSpatial(Dim d) const {
  int64_t s = spatial(d);
  for (const LevelLoops& l : levels) s *= l.spatial[at(d)];
  return s;
}

namespace {

const char* kTensorNames[kTensors] = {"inputs", "weights", "outputs"};

std::string keepsText(const LevelLoops& l) {
  std::string s;
  for (int t = 0; t < kTensors; ++t) {
    if (l.keeps[static_cast<size_t>(t)]) s += std::string(s.empty() ? "" : ",") + kTensorNames[t];
  }
  return s.empty() ? "-" : s;
}

std::string loopsText(const LevelLoops& l, const Problem& p, const char* sep) {
  std::string s;
  for (Dim d : l.order) {
    s += (s.empty() ? "" : sep);
    s += "for " + p.dimName(d) + " in [0:" + std::to_string(l.factor[at(d)]) + ")";
  }
  return s;
}

}  // namespace

std::string spatialText(const Factors& rows, const Factors& cols, const Problem& p) {
  std::string r, c;
  for (Dim d : kAllDims) {
    if (rows[at(d)] > 1) r += " " + p.dimName(d) + ":" + std::to_string(rows[at(d)]);
    if (cols[at(d)] > 1) c += " " + p.dimName(d) + ":" + std::to_string(cols[at(d)]);
  }
  return "rows" + (r.empty() ? std::string(" -") : r) + "  cols" +
         (c.empty() ? std::string(" -") : c);
}

std::string factorsText(const Factors& f, const Problem& p) {
  std::string s;
  for (Dim d : kAllDims) {
    if (f[at(d)] > 1) s += (s.empty() ? "" : " ") + p.dimName(d) + ":" + std::to_string(f[at(d)]);
  }
  return s.empty() ? "-" : s;
}

std::string Mapping::loopNest(const Problem& p, const Hardware& hw) const {
  std::string out;
  std::string indent;
  for (size_t l = 0; l < levels.size(); ++l) {
    const std::string label = hw.levels[l].name + " [" + keepsText(levels[l]) + "]";
    std::string pad(std::max<size_t>(1, 34 - std::min<size_t>(33, label.size())), ' ');
    const std::string loops = loopsText(levels[l], p, "  ");
    out += label + pad + indent + (loops.empty() ? "(no loops)" : loops) + "\n";
    indent += "  ";
    if (hw.levels[l].fanout > 1) {
      out += std::string(34, ' ') + indent + "parallel x" + std::to_string(hw.levels[l].fanout) +
             " " + factorsText(levels[l].spatial, p) + "\n";
      indent += "  ";
    }
    if (static_cast<int>(l) == hw.array()) {
      out += std::string(34, ' ') + indent + "parallel " + spatialText(rows, cols, p) + "\n";
      indent += "  ";
    }
  }
  return out;
}

std::string Mapping::brief(const Problem& p, const Hardware& hw) const {
  std::string s = spatialText(rows, cols, p);
  for (size_t i = levels.size(); i-- > 0;) {
    std::string f;
    for (Dim d : levels[i].order) f += " " + p.dimName(d) + std::to_string(levels[i].factor[at(d)]);
    if (hw.levels[i].fanout > 1) s += " | " + hw.levels[i].name + " parallel " + factorsText(levels[i].spatial, p);
    s += " | " + hw.levels[i].name + (f.empty() ? " -" : f);
  }
  return s + (double_buffered ? "" : " | single-buffered");
}

std::vector<std::pair<std::string, std::string>> Mapping::flatten(const Problem& p,
                                                                  const Hardware& hw) const {
  std::vector<std::pair<std::string, std::string>> kv;
  kv.emplace_back("spatial", spatialText(rows, cols, p));
  for (size_t l = 0; l < levels.size(); ++l) {
    std::string f;
    for (Dim d : levels[l].order) {
      f += (f.empty() ? "" : " ") + p.dimName(d) + "=" + std::to_string(levels[l].factor[at(d)]);
    }
    kv.emplace_back(hw.levels[l].name,
                    (f.empty() ? std::string("-") : f) + " keeps " + keepsText(levels[l]));
    if (hw.levels[l].fanout > 1) {
      kv.emplace_back(hw.levels[l].name + ".parallel", factorsText(levels[l].spatial, p));
    }
  }
  kv.emplace_back("double_buffered", double_buffered ? "true" : "false");
  return kv;
}

std::string checkShape(const Mapping& m, const Problem& p, const Hardware& hw, Blame* blame) {
  Blame ignored;
  Blame& b = blame != nullptr ? *blame : ignored;
  if (m.levels.size() != hw.levels.size()) {
    return "the mapping has " + std::to_string(m.levels.size()) + " levels, the hardware " +
           std::to_string(hw.levels.size());
  }
  int64_t rows = 1, cols = 1;
  b = {hw.array(), true};
  for (Dim d : kAllDims) {
    if (m.rows[at(d)] < 1 || m.cols[at(d)] < 1) return "spatial factors must be >= 1";
    rows *= m.rows[at(d)];
    cols *= m.cols[at(d)];
  }
  if (rows > hw.rows || cols > hw.cols) {
    return "spatial unrolling " + std::to_string(rows) + "x" + std::to_string(cols) +
           " exceeds the " + std::to_string(hw.rows) + "x" + std::to_string(hw.cols) + " array";
  }
  for (size_t l = 0; l < m.levels.size(); ++l) {
    const LevelLoops& ll = m.levels[l];
    int64_t fan = 1;
    b = {static_cast<int>(l), true};
    for (Dim d : kAllDims) {
      if (ll.spatial[at(d)] < 1) return "spatial factors must be >= 1";
      if (ll.spatial[at(d)] > 1 && !hw.levels[l].fanout_split_reduction &&
          !Problem::relevant(Operand::Output, d)) {
        return hw.levels[l].name + ": its instances compute whole outputs (split_reduction: false); " +
               p.dimName(d) + " is a reduction dim";
      }
      fan *= ll.spatial[at(d)];
    }
    if (fan > hw.levels[l].fanout) {
      return hw.levels[l].name + ": spatial factors " + std::to_string(fan) + " exceed its fan-out of " +
             std::to_string(hw.levels[l].fanout);
    }
    b.spatial = false;
    for (Dim d : kAllDims) {
      if (ll.factor[at(d)] < 1) return "factors must be >= 1";
      const auto n = std::count(ll.order.begin(), ll.order.end(), d);
      if ((ll.factor[at(d)] > 1) != (n == 1) || n > 1) {
        return hw.levels[l].name + ": the loop order must list each dim with a factor > 1 once (" +
               p.dimName(d) + ")";
      }
    }
    for (int t = 0; t < kTensors; ++t) {
      const auto ti = static_cast<size_t>(t);
      if (ll.keeps[ti] && !hw.levels[l].can_hold[ti]) {
        return hw.levels[l].name + " cannot hold " + kTensorNames[t];
      }
    }
  }
  b = {0, false};
  for (Dim d : kAllDims) {
    if (m.tile(0, d, hw.array()) < p.of(d)) {
      return "the factors of " + p.dimName(d) + " cover " +
             std::to_string(m.tile(0, d, hw.array())) + " of its " + std::to_string(p.of(d));
    }
  }
  b = {};
  return "";
}

}  // namespace tessel::dataflows::nest
