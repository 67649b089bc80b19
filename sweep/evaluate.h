// Runs one sweep point: the base accelerator with the point's overrides, its workload and
// dataflow, through the spec's engine and mapper; returns the result as one JSON line
// (schema in reports/SCHEMA.md, "Sweep results"), with the constraints over metrics it broke
// in `violated` (it keeps its status "ok" and its metrics). A point that cannot run (an invalid
// combination, an infeasible mapping) is a result with status "failed" and the reason, never
// an exception. Workload graphs and dataflows are built once per evaluator and reused.
#pragma once

#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "sweep/points.h"
#include "sweep/spec.h"

namespace tessel::models {
class Graph;
}
namespace tessel::sim {
struct RunStats;
}
namespace tessel::arch {
struct Accelerator;
}
namespace tessel::dataflows {
struct Dataflow;
}

namespace tessel::sweep {

class BaseValues;

class PointEvaluator {
 public:
  explicit PointEvaluator(const Spec& spec);
  ~PointEvaluator();
  PointEvaluator(const PointEvaluator&) = delete;
  PointEvaluator& operator=(const PointEvaluator&) = delete;

  // One compact JSON object, no trailing newline.
  std::string evaluate(const Point& point);
  // The line of a point that could not run: status "failed", the reason and its kind
  // ("config", "infeasible", "out_of_memory", "internal", "crashed").
  static std::string failure(const Point& point, const std::string& error, const std::string& kind);

 private:
  // {"metrics": ..., "violated": [...] when some constraint broke}.
  nlohmann::ordered_json run(const Point& point);
  std::vector<std::string> broken(const Point& point, const sim::RunStats& run,
                                  const arch::Accelerator& acc) const;
  const models::Graph& graph(const Point& point, int dtype);
  const dataflows::Dataflow& dataflow(const std::string& name);

  const Spec& spec_;
  std::unique_ptr<BaseValues> base_;  // what constraints read for keys a point does not set
  std::map<std::string, std::unique_ptr<models::Graph>> graphs_;
  std::map<std::string, std::unique_ptr<dataflows::Dataflow>> dataflows_;
};

}  // namespace tessel::sweep
