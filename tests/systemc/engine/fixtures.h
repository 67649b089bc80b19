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

namespace tessel::testing {

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

}  // namespace tessel::testing
