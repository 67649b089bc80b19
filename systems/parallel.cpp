#include "systems/parallel.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "sim/footprint.h"
#include "sim/run.h"
#include "systems/collective.h"
#include "systems/steps.h"
#include "util/error.h"
#include "util/units.h"

namespace tessel::systems {

namespace {

[[noreturn]] void splitError(const std::string& option, const std::string& message) {
  throw ConfigError({"", 0, 0, option}, message);
}

void checkSplit(const System& sys, const models::Graph& g, const Split& s, int layers) {
  for (const auto& [option, v] : {std::pair{"--tp", s.tp}, {"--pp", s.pp}, {"--ep", s.ep}, {"--dp", s.dp}}) {
    if (v < 1) splitError(option, std::string(option).substr(2) + " must be at least 1");
  }
  if (g.tensor_parallel != s.tp || g.expert_parallel != s.ep)
    throw Error("the chip's graph was built for tp=" + std::to_string(g.tensor_parallel) + " ep=" +
                std::to_string(g.expert_parallel) + ", the split is " + s.str());
  if (s.chips() > sys.count)
    splitError(s.tp > 1 ? "--tp" : s.pp > 1 ? "--pp" : "--dp",
               s.str() + " needs " + std::to_string(s.chips()) + " chips; " + sys.name + " has " +
                   std::to_string(sys.count));
  if (s.pp > std::max(1, layers))
    splitError("--pp", "pp " + std::to_string(s.pp) + " exceeds the model's " + std::to_string(layers) +
                           " blocks: a stage holds at least one");
}

// Stage of each op: blocks cut into pp runs (the first runs one longer when they do not
// divide), the ops before the first block in stage 0, after the last in the last.
std::vector<int> stageOfOps(const models::Graph& g, int layers, int64_t pp) {
  std::vector<int> stage(g.ops().size(), 0);
  bool seen_block = false;
  for (const models::Op& op : g.ops()) {
    int s = 0;
    if (op.layer >= 0) {
      seen_block = true;
      const int64_t base = layers / pp, extra = layers % pp;
      const int64_t l = op.layer;
      s = static_cast<int>(l < extra * (base + 1) ? l / (base + 1) : extra + (l - extra * (base + 1)) / base);
    } else if (seen_block) {
      s = static_cast<int>(pp - 1);
    }
    stage[static_cast<size_t>(op.id)] = s;
  }
  return stage;
}

int blocksOf(const models::Graph& g) {
  int layers = 0;
  for (const models::Op& op : g.ops()) layers = std::max(layers, op.layer + 1);
  return layers;
}

void stageFootprints(const models::Graph& g, const std::vector<int>& stage_of, std::vector<Stage>& stages) {
  std::vector<std::vector<bool>> counted(stages.size(), std::vector<bool>(g.tensors().size(), false));
  for (const models::Op& op : g.ops()) {
    const int s = stage_of[static_cast<size_t>(op.id)];
    for (int t : op.inputs) {
      const models::Tensor& x = g.tensor(t);
      if (counted[static_cast<size_t>(s)][static_cast<size_t>(t)]) continue;  // tied: once a stage
      counted[static_cast<size_t>(s)][static_cast<size_t>(t)] = true;
      if (x.role == models::TensorRole::Weight) stages[static_cast<size_t>(s)].weight_bytes += x.bytes();
      if (x.role == models::TensorRole::Input) stages[static_cast<size_t>(s)].input_bytes += x.bytes();
    }
  }
  const sim::Footprint whole = sim::dramFootprint(g, {});
  for (Stage& s : stages) s.activation_bytes = whole.peak_activations;  // at most the whole's
}

void checkFits(const System& sys, const std::vector<Stage>& stages) {
  const uint64_t capacity = sys.chip.levels.at(0).capacity_bytes;
  if (capacity == 0) return;
  for (size_t i = 0; i < stages.size(); ++i) {
    const Stage& s = stages[i];
    const int64_t need = s.weight_bytes + s.input_bytes + s.activation_bytes;
    if (static_cast<uint64_t>(need) <= capacity) continue;
    using units::formatBytes;
    throw InfeasibleError(
        "stage " + std::to_string(i) + " (blocks " + std::to_string(s.first_layer) + ".." +
        std::to_string(s.last_layer) + ") needs " + formatBytes(static_cast<uint64_t>(need)) +
        " of DRAM per chip (weights " + formatBytes(static_cast<uint64_t>(s.weight_bytes)) +
        ", inputs and KV cache " + formatBytes(static_cast<uint64_t>(s.input_bytes)) +
        ", live activations " + formatBytes(static_cast<uint64_t>(s.activation_bytes)) + "); " +
        sys.chip.name + "'s dram.capacity is " + formatBytes(capacity) +
        ": split it over more chips (--tp, --pp)");
  }
}

// Each collective of the graph over its group (the first tp or ep ranks), in its op's stage;
// identical calls costed once. Every replica runs its own: links' energy times dp.
void costCommunication(const System& sys, const models::Graph& g, const Split& split,
                       const std::vector<int>& stage_of, bool execute, Overlap overlap, SystemRun& r) {
  std::map<std::tuple<std::string, std::string, int64_t>, std::pair<size_t, CollectiveCost>> seen;
  const std::vector<OverlapWindow> windows = overlapWindows(g, r.chip);
  for (size_t i = 0; i < g.communication.size(); ++i) {
    const models::Communication& c = g.communication[i];
    const auto key = std::make_tuple(c.op, c.group, c.bytes);
    auto it = seen.find(key);
    if (it == seen.end()) {
      const int64_t ranks = c.group == "ep" ? split.ep : split.tp;
      std::string why;
      const Topology placed = sys.topology.group(ranks, why);
      if (!why.empty()) splitError(c.group == "ep" ? "--ep" : "--tp", why);
      const std::optional<Collective> op = parseCollective(c.op);
      if (!op) throw Error("unknown collective '" + c.op + "' in the graph");
      const Network net(placed);
      CollectiveCost cost = costCollective({*op, static_cast<double>(c.bytes), ""}, net, sys.collective_overhead_s);
      if (execute) {  // the SystemC engine's run: the same steps executed on the fabric
        const std::optional<double> s =
            executeCollective({*op, static_cast<double>(c.bytes), cost.algorithm}, net, sys.collective_overhead_s);
        if (s) cost.seconds = *s;
      }
      CommRecord rec;
      rec.op = c.op;
      rec.group = c.group;
      rec.bytes = static_cast<double>(c.bytes);
      rec.algorithm = cost.algorithm;
      rec.bytes_per_link = cost.bytes_per_link;
      r.communication.push_back(rec);
      it = seen.emplace(key, std::make_pair(r.communication.size() - 1, cost)).first;
    }
    const CollectiveCost& cost = it->second.second;
    CommRecord& rec = r.communication[it->second.first];
    const int64_t ranks = c.group == "ep" ? split.ep : split.tp;
    const double exposed = exposedSeconds(overlap, c.op, cost.seconds, ranks, windows[i]);
    rec.calls += 1;
    rec.seconds += exposed;
    rec.hidden_s += cost.seconds - exposed;
    r.hidden_s += cost.seconds - exposed;
    rec.energy_pj += cost.energy_pj * static_cast<double>(split.dp);
    r.link_energy_pj += cost.energy_pj * static_cast<double>(split.dp);
    const int stage = c.after >= 0 ? stage_of[static_cast<size_t>(c.after)] : 0;
    r.stages[static_cast<size_t>(stage)].communication_s += exposed;
  }
}

// The hidden state each stage hands the next: its last op's output, from the stage's first
// chip to the next stage's first chip over the whole system's links.
void costPipeline(const System& sys, const models::Graph& g, const Split& split,
                  const std::vector<int>& stage_of, SystemRun& r) {
  if (split.pp <= 1) return;
  const Network net(sys.topology);
  for (int64_t s = 0; s + 1 < split.pp; ++s) {
    int last = -1;
    for (const models::Op& op : g.ops()) {
      if (stage_of[static_cast<size_t>(op.id)] == s) last = op.id;
    }
    if (last < 0) continue;
    const double bytes = static_cast<double>(g.tensor(g.op(last).outputs.at(0)).bytes());
    CollectiveCost c;
    StepCoster sc(net);
    sc.add({{static_cast<int>(s * split.width()), static_cast<int>((s + 1) * split.width()), bytes}}, 1, c);
    r.pipeline_s += sys.collective_overhead_s + c.latency_s + c.bandwidth_s;
    r.link_energy_pj += c.energy_pj * static_cast<double>(split.dp);
    CommRecord rec{"send-recv", "pp", 1, bytes, "direct",
                   sys.collective_overhead_s + c.latency_s + c.bandwidth_s, c.energy_pj * static_cast<double>(split.dp),
                   c.bytes_per_link};
    auto same = std::find_if(r.communication.begin(), r.communication.end(), [&](const CommRecord& x) {
      return x.group == "pp" && x.bytes == bytes;
    });
    if (same == r.communication.end()) {
      r.communication.push_back(rec);
    } else {
      same->calls += 1, same->seconds += rec.seconds, same->energy_pj += rec.energy_pj;
    }
  }
}

}  // namespace

std::string Split::str() const {
  return "tp=" + std::to_string(tp) + " pp=" + std::to_string(pp) + " ep=" + std::to_string(ep) +
         " dp=" + std::to_string(dp);
}

SystemRun runOnSystem(const System& sys, const models::Graph& g, const Split& split,
                      const dataflows::Dataflow& df, const sim::RunOptions& options, Overlap overlap) {
  const int layers = blocksOf(g);
  checkSplit(sys, g, split, layers);
  SystemRun r;
  r.split = split;
  const std::vector<int> stage_of = stageOfOps(g, std::max(1, layers), split.pp);
  r.stages.resize(static_cast<size_t>(split.pp));
  for (size_t s = 0; s < r.stages.size(); ++s) r.stages[s].first_layer = layers, r.stages[s].last_layer = -1;
  for (const models::Op& op : g.ops()) {
    Stage& s = r.stages[static_cast<size_t>(stage_of[static_cast<size_t>(op.id)])];
    if (op.layer >= 0) s.first_layer = std::min(s.first_layer, op.layer), s.last_layer = std::max(s.last_layer, op.layer);
  }
  stageFootprints(g, stage_of, r.stages);
  checkFits(sys, r.stages);
  for (const Stage& s : r.stages) r.memory_per_chip = std::max(r.memory_per_chip, s.weight_bytes + s.input_bytes + s.activation_bytes);

  // One chip's share, timed as any run (the stages' footprints were checked above).
  arch::Accelerator chip = sys.chip;
  chip.levels.at(0).capacity_bytes = 0;
  r.chip = sim::simulate(g, chip, df, options);
  r.chip.arch_hash = sys.chip.hash();
  int stage = 0;
  for (const sim::OpStats& op : r.chip.ops) {
    const int id = g.findOp(op.name);  // host conversions stay with the op before them
    if (id >= 0) stage = stage_of[static_cast<size_t>(id)];
    r.stages[static_cast<size_t>(stage)].seconds += op.cycles / r.chip.clock_hz;
  }
  costCommunication(sys, g, split, stage_of, options.engine == "systemc", overlap, r);
  costPipeline(sys, g, split, stage_of, r);
  for (const Stage& s : r.stages) {
    r.compute_s += s.seconds;
    r.communication_s += s.communication_s;
    r.interval_s = std::max(r.interval_s, s.seconds + s.communication_s);
  }
  r.latency_s = r.compute_s + r.communication_s + r.pipeline_s;
  const double chips = static_cast<double>(split.chips());
  // Each run's work (its ops and its arrays' clock) once per chip that runs it; every chip's
  // leakage and always-clocked logic (clock tree, control) for the whole latency.
  r.chip_energy_pj =
      static_cast<double>(split.width() * split.dp) * (r.chip.dynamicEnergyPj() + r.chip.clockedWhileComputingPj()) +
      chips * (r.chip.leakageMw() * 1e9 + r.chip.clockedPjPerCycle() * r.chip.clock_hz) * r.latency_s;  // mW x s = 1e9 pJ
  return r;
}

}  // namespace tessel::systems
