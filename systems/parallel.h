// A model on a system of chips: one chip's share of a parallel split (models::WorkloadOptions'
// tensor_parallel / expert_parallel build it) timed by the chip's engine, the collectives the
// split needs (models::Graph::communication) timed over the system's interconnect, pipeline
// stages cut by layer with their activations sent between them, and replicas.
//
// Placement: a replica's tensor- (or expert-) parallel group is the first ranks in the
// topology's order (the innermost dimensions: inside a node on a hierarchical system); its
// pipeline stages follow one group after another; replicas after that.
//
// With options.engine "systemc" the chip's share runs on the SystemC engine and every collective's
// steps on the SystemC fabric (sim/fabric.h); else both in closed form.
//
// Time of one batch (no micro-batching): every stage's ops in turn on its chips, each
// collective where the graph needs it (exposed, the next op waiting for it, unless overlapped), and a send of the
// hidden state from each stage's first chip to the next's. A pipeline in steady state takes a new
// batch every `interval_s` (the slowest stage).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dataflows/dataflow.h"
#include "models/graph.h"
#include "sim/run.h"
#include "systems/overlap.h"
#include "systems/system.h"

namespace tessel::systems {

struct Split {
  int64_t tp = 1, pp = 1, ep = 1, dp = 1;
  int64_t width() const { return tp > 1 ? tp : ep; }  // chips per stage of one replica
  int64_t chips() const { return width() * pp * dp; }
  std::string str() const;  // "tp=8 pp=1 ep=1 dp=2"
};

// One kind of collective of the run: how many calls, what each moves and takes.
struct CommRecord {
  std::string op, group;   // "all-reduce", "tp"
  int64_t calls = 0;
  double bytes = 0;        // each call's buffer per rank
  std::string algorithm;
  double seconds = 0;      // all calls, exposed
  double hidden_s = 0;     // all calls, behind the GEMMs (--overlap collective-matmul)
  double energy_pj = 0;    // all calls, all links
  double bytes_per_link = 0;  // the busiest link, one call
};

struct Stage {
  int first_layer = 0, last_layer = 0;  // transformer blocks [first, last]
  double seconds = 0;                    // its ops on one chip
  double communication_s = 0;            // its collectives
  int64_t weight_bytes = 0, input_bytes = 0, activation_bytes = 0;  // per chip
};

struct SystemRun {
  Split split;
  sim::RunStats chip;  // one chip's share, every stage's ops (the engine's own report)
  std::vector<Stage> stages;
  std::vector<CommRecord> communication;
  double compute_s = 0;        // every stage's ops
  double communication_s = 0;  // the collectives, exposed
  double hidden_s = 0;         // the collectives' time behind the GEMMs (not in the latency)
  double pipeline_s = 0;       // sends between stages
  double latency_s = 0;        // one batch through the whole
  double interval_s = 0;       // steady state: a batch every interval per replica
  double chip_energy_pj = 0;   // every chip used (dynamic of the work, static for the latency)
  double link_energy_pj = 0;
  double energy_pj() const { return chip_energy_pj + link_energy_pj; }
  int64_t memory_per_chip = 0;  // the fullest stage's footprint
};

// Throws ConfigError (at --tp/--pp/--ep/--dp) for a split the system cannot hold or the graph
// does not match, InfeasibleError when a stage's share does not fit a chip's DRAM.
// `overlap`: CollectiveMatmul hides tensor-parallel collectives behind the GEMMs around them
// (systems/overlap.h); None leaves every collective exposed.
SystemRun runOnSystem(const System& system, const models::Graph& chip_graph, const Split& split,
                      const dataflows::Dataflow& dataflow, const sim::RunOptions& options,
                      Overlap overlap = Overlap::None);

}  // namespace tessel::systems
