// A measured run against the model: its stages, and each latency statistic side by side.
#include "serve/llm/measured.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

#include "util/error.h"

namespace tessel::serve::llm {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

LatencyComparison compare(const std::vector<double>& measured, const std::vector<double>& model) {
  LatencyComparison c;
  c.measured = percentiles(measured);
  c.model = percentiles(model);
  c.error.mean = relativeError(c.model.mean, c.measured.mean);
  c.error.p50 = relativeError(c.model.p50, c.measured.p50);
  c.error.p90 = relativeError(c.model.p90, c.measured.p90);
  c.error.p99 = relativeError(c.model.p99, c.measured.p99);
  c.error.max = relativeError(c.model.max, c.measured.max);
  return c;
}

}  // namespace

std::vector<MeasuredStage> stagesOf(const std::vector<MeasuredRequest>& measured) {
  std::vector<MeasuredStage> stages;
  for (size_t i = 0; i < measured.size(); ++i) {
    auto it = std::find_if(stages.begin(), stages.end(),
                           [&](const MeasuredStage& s) { return s.name == measured[i].stage; });
    if (it == stages.end()) {
      stages.push_back({measured[i].stage, {}});
      it = std::prev(stages.end());
    }
    it->rows.push_back(i);
  }
  for (MeasuredStage& s : stages) {
    std::stable_sort(s.rows.begin(), s.rows.end(), [&](size_t a, size_t b) {
      return measured[a].request.arrival < measured[b].request.arrival;
    });
  }
  return stages;
}

std::vector<Request> stageRequests(const std::vector<MeasuredRequest>& measured,
                                   const MeasuredStage& stage) {
  std::vector<Request> reqs;
  reqs.reserve(stage.rows.size());
  for (size_t row : stage.rows) {
    reqs.push_back(measured[row].request);
    reqs.back().id = static_cast<int64_t>(reqs.size() - 1);
  }
  return reqs;
}

double measuredRate(const std::vector<MeasuredRequest>& measured, const MeasuredStage& stage) {
  double first = std::numeric_limits<double>::infinity(), last = -first;
  for (size_t row : stage.rows) {
    first = std::min(first, measured[row].request.arrival);
    last = std::max(last, measured[row].request.arrival);
  }
  return last > first ? static_cast<double>(stage.rows.size()) / (last - first) : kNaN;
}

double relativeError(double model, double measured) {
  return measured > 0 ? (model - measured) / measured : kNaN;
}

StageComparison compareStage(const std::vector<MeasuredRequest>& measured,
                             const MeasuredStage& stage, const std::vector<RequestRecord>& model) {
  if (model.size() != stage.rows.size()) {
    throw Error("compareStage: " + std::to_string(model.size()) + " records for " +
                std::to_string(stage.rows.size()) + " requests");
  }
  StageComparison s;
  s.name = stage.name;
  s.requests = static_cast<int64_t>(stage.rows.size());
  std::vector<double> ttft[2], tpot[2], e2e[2];  // [0] measured, [1] model
  for (size_t i = 0; i < model.size(); ++i) {
    const MeasuredRequest& m = measured[stage.rows[i]];
    const RequestRecord& r = model[i];
    ttft[0].push_back(m.ttft);
    ttft[1].push_back(r.first_token - r.arrival);
    e2e[0].push_back(m.e2e);
    e2e[1].push_back(r.finish - r.arrival);
    if (m.request.output > 1) {
      const double steps = static_cast<double>(m.request.output - 1);
      tpot[0].push_back((m.e2e - m.ttft) / steps);
      tpot[1].push_back((r.finish - r.first_token) / steps);
    }
    s.e2e_request_errors.push_back(std::fabs(relativeError(e2e[1].back(), m.e2e)));
  }
  s.rate = measuredRate(measured, stage);
  s.tpot_requests = static_cast<int64_t>(tpot[0].size());
  s.ttft = compare(ttft[0], ttft[1]);
  s.tpot = compare(tpot[0], tpot[1]);
  s.e2e = compare(e2e[0], e2e[1]);
  s.e2e_request_error_median = percentiles(s.e2e_request_errors).p50;
  return s;
}

OverallComparison overall(const std::vector<StageComparison>& stages) {
  OverallComparison o;
  std::vector<double> requests, means;
  for (const StageComparison& s : stages) {
    o.requests += s.requests;
    requests.insert(requests.end(), s.e2e_request_errors.begin(), s.e2e_request_errors.end());
    means.push_back(std::fabs(s.e2e.error.mean));
  }
  o.e2e_request_error_median = percentiles(requests).p50;
  o.e2e_mean_error_median = percentiles(means).p50;
  return o;
}

}  // namespace tessel::serve::llm
