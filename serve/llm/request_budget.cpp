#include "serve/llm/request_budget.h"

#include "serve/llm/scheduler.h"
#include "util/budget.h"
#include "util/units.h"

namespace tessel::serve::llm {

int64_t bytesPerRequest() {
  return static_cast<int64_t>(sizeof(Request) + sizeof(RequestRecord) + 2 * sizeof(KvSample) +
                              6 * sizeof(double));
}

double meanOf(const LengthDist& d) {
  return d.kind == LengthDist::Kind::Uniform ? (d.a + d.b) / 2 : d.a;
}

void checkRequests(int64_t requests, int64_t extra_bytes, double mean_output, int64_t points,
                   const SourceLocation& where) {
  budget::checkCount(requests, bytesPerRequest() + extra_bytes, "requests", where);
  budget::checkWork(static_cast<double>(requests) * static_cast<double>(points),
                    kSecondsPerRequest + mean_output * kSecondsPerIteration,
                    points > 1 ? "simulated requests (" + units::formatCount(requests) +
                                     " at each of " + std::to_string(points) + " grid points)"
                               : std::string("requests"),
                    where);
}

}  // namespace tessel::serve::llm
