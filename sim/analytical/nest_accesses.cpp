#include "sim/analytical/nest_accesses.h"

#include "util/checked.h"

namespace tessel::sim::analytical {

namespace {

namespace nest = dataflows::nest;
using PerTensor = nest::PerTensor;

// Level l's entry of a per-level count; 0 when the cost model left it out.
double entry(const std::vector<PerTensor>& v, size_t l, size_t t) {
  return l < v.size() ? v[l][t] : 0.0;
}

// Bytes per word of a tensor's reads, fills and on-chip updates.
double wordBytes(const nest::Problem& p, const nest::Hardware& hw, size_t t) {
  const DType d = t == 0 ? p.input_dtype : t == 1 ? p.weight_dtype : hw.accum_dtype;
  return static_cast<double>(bytesOf(d));
}

// Words in the output updates an off-chip level takes: every element's last update is the result
// at the output's width, each earlier one a partial sum at the accumulator's.
double offchipUpdateWords(double bytes, const nest::Problem& p, const nest::Hardware& hw) {
  const double elements = p.elements(dataflows::Operand::Output);
  const double out = bytesOf(p.output_dtype), acc = bytesOf(hw.accum_dtype);
  return bytes <= elements * out ? bytes / out : elements + (bytes - elements * out) / acc;
}

// A count rounded to an integer; a ConfigError naming the op, the count and the level when it
// is not countable.
class Counter {
 public:
  explicit Counter(const std::string& op) : op_(op) {}
  int64_t operator()(double v, const std::string& level, const char* what) const {
    return checked::toCount(v, [&] { return "op '" + op_ + "': " + what + " at " + level; });
  }

 private:
  const std::string& op_;
};

LevelAccesses levelAccesses(const NestCost& nc, const nest::Mapping& m, const nest::Hardware& hw,
                            size_t l, const Counter& count) {
  const nest::Cost& c = nc.cost;
  const nest::Level& lv = hw.levels[l];
  LevelAccesses a;
  a.level = lv.name;
  a.instances = lv.instances;
  for (size_t t = 0; t < static_cast<size_t>(kNumOperands); ++t) {
    const int home = nc.options.home[t];
    const int li = static_cast<int>(l);
    a.holds[t] = li == home || (li > home && m.levels[l].keeps[t]);
    const double r = entry(c.reads, l, t), f = entry(c.fills, l, t), u = entry(c.updates, l, t);
    const double w = wordBytes(nc.problem, hw, t);
    const bool offchip_out = lv.off_chip && t == static_cast<size_t>(Operand::Output);
    a.read_bytes[t] = count(r, lv.name, "bytes read");
    a.fill_bytes[t] = count(f, lv.name, "bytes filled");
    a.update_bytes[t] = count(u, lv.name, "bytes updated");
    a.reads[t] = count(r / w, lv.name, "words read");
    a.fills[t] = count(f / w, lv.name, "words filled");
    a.updates[t] = count(offchip_out ? offchipUpdateWords(u, nc.problem, hw) : u / w, lv.name,
                         "words updated");
  }
  return a;
}

// Words of partial sums level l sends up to its parent (the next level out holding outputs),
// every copy's, before a network reduces them: the parent's updates when no network lies between
// the two, else what the innermost network between them delivered less the partial sums it
// carried back down (l's fills).
double sentUp(const std::vector<LevelAccesses>& acc, const nest::Cost& c, const nest::Problem& p,
              const nest::Hardware& hw, size_t l) {
  const auto out = static_cast<size_t>(Operand::Output);
  if (!acc[l].holds[out]) return 0;
  size_t par = l;
  do {
    if (par == 0) return 0;  // l is the outputs' home: no parent
    --par;
  } while (!acc[par].holds[out]);
  double delivered = -1;
  const auto array = static_cast<size_t>(hw.array());
  if (array >= par && array < l) {
    delivered = c.delivered[out];  // the array's NoC is inside every level's fan-out
  } else {
    for (size_t k = l; k-- > par && delivered < 0;) {
      if (hw.levels[k].fanout > 1) delivered = entry(c.fanout_delivered, k, out);
    }
  }
  if (delivered < 0) return static_cast<double>(acc[par].updates[out]);
  return (delivered - entry(c.fills, l, out)) / wordBytes(p, hw, out);
}

NetworkTraffic network(const std::string& level, const char* kind, int64_t fanout,
                       int64_t instances, const PerTensor& sent, const PerTensor& delivered,
                       const Counter& count) {
  NetworkTraffic n{level, kind, fanout, instances, {}, {}};
  for (size_t t = 0; t < static_cast<size_t>(kNumOperands); ++t) {
    n.sent_bytes[t] = count(sent[t], level, "bytes sent into the fan-out");
    n.delivered_bytes[t] = count(delivered[t], level, "bytes delivered over the fan-out");
  }
  return n;
}

}  // namespace

void fillNestAccesses(OpStats& s, const NestCost& nc, const nest::Mapping& m,
                      const nest::Hardware& hw, const std::string& op) {
  const Counter count(op);
  const nest::Cost& c = nc.cost;
  s.accesses.clear();
  s.networks.clear();
  for (size_t l = 0; l < hw.levels.size(); ++l) {
    s.accesses.push_back(levelAccesses(nc, m, hw, l, count));
  }
  for (size_t l = 0; l < hw.levels.size(); ++l) {
    LevelAccesses& a = s.accesses[l];
    a.timeloop_reads = a.reads;
    const auto out = static_cast<size_t>(Operand::Output);
    a.timeloop_reads[out] -=
        count(sentUp(s.accesses, c, nc.problem, hw, l), a.level, "words of partial sums sent up");
    const nest::Level& lv = hw.levels[l];
    if (lv.fanout <= 1) continue;
    const PerTensor none{};
    s.networks.push_back(network(lv.name, "fanout", lv.fanout, lv.instances,
                                 l < c.fanout_sent.size() ? c.fanout_sent[l] : none,
                                 l < c.fanout_delivered.size() ? c.fanout_delivered[l] : none,
                                 count));
  }
  const nest::Level& top = hw.levels[static_cast<size_t>(hw.array())];
  s.networks.push_back(
      network(top.name, "array", hw.arrayPes(), hw.arrays, c.noc_bytes, c.delivered, count));
}

}  // namespace tessel::sim::analytical
