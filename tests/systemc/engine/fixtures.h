// Plans to lower and run: a workload on an accelerator, planned as `tessel run` plans it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "dataflows/host_conversions.h"
#include "dataflows/plan.h"
#include "models/workload.h"
#include "sim/run.h"
#include "sim/stats.h"

namespace tessel::testing {

// The engines count the same MACs, register-file, NoC and per-level bytes for an op.
inline bool sameCounts(const sim::OpStats& x, const sim::OpStats& y) {
  bool same = x.macs == y.macs && x.register_file_bytes == y.register_file_bytes &&
              x.noc_bytes == y.noc_bytes && x.traffic.size() == y.traffic.size();
  for (size_t l = 0; same && l < x.traffic.size(); ++l) {
    same = x.traffic[l].read_bytes == y.traffic[l].read_bytes &&
           x.traffic[l].write_bytes == y.traffic[l].write_bytes;
  }
  return same;
}

struct Planned {
  arch::Accelerator acc;
  dataflows::Dataflow dataflow;
  std::unique_ptr<models::Graph> graph;  // the plans point into it
  std::vector<dataflows::OpPlan> plans;
};

inline arch::Accelerator shipped(const std::string& name) {
  return arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/" + name + ".yaml", {});
}

inline Planned planned(arch::Accelerator acc, const std::string& workload,
                       const std::string& dataflow = "", const std::string& mapper = "search",
                       int64_t seq = 128) {
  Planned p;
  p.acc = std::move(acc);
  p.dataflow = dataflows::loadDataflow(
      dataflow.empty() ? p.acc.array.dataflows.front() : dataflow);
  models::WorkloadOptions o;
  o.seq = seq;
  o.dtype = p.acc.array.input_dtype;
  p.graph = std::make_unique<models::Graph>(
      dataflows::withHostConversions(models::build(workload, o), p.acc));
  dataflows::PlanOptions po;
  po.mapper = mapper;
  po.mapper_options.budget = 4000;
  p.plans = dataflows::plan(*p.graph, p.acc, p.dataflow, po);
  return p;
}

// The same plans timed by the analytical engine and by the SystemC engine (registered).
struct BothEngines {
  sim::RunStats analytical, systemc;
};
inline BothEngines runBoth(const Planned& p) {
  sim::RunOptions o;
  o.engine = "analytical";
  BothEngines r;
  r.analytical = sim::evaluatePlans(*p.graph, p.acc, p.dataflow, p.plans, o);
  o.engine = "systemc";
  r.systemc = sim::evaluatePlans(*p.graph, p.acc, p.dataflow, p.plans, o);
  return r;
}

}  // namespace tessel::testing
