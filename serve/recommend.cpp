#include "serve/recommend.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "serve/service.h"
#include "util/units.h"

namespace tessel::serve {

namespace {

std::string ms(double seconds) { return units::formatWith("%.3g ms", seconds * 1e3); }
std::string rate(double per_s) { return units::formatWith("%.4g req/s", per_s); }
std::string pct(double ratio) { return units::formatWith("%+.1f%%", (ratio - 1) * 100); }

bool inGrid(const Configuration& c) { return c.variant.empty(); }

const ServiceProfile* profileOf(const std::vector<ServiceProfile>& ps, CoreMode m, int batch) {
  for (const auto& p : ps) {
    if (p.mode == m && p.batch == batch) return &p;
  }
  return nullptr;
}

// The configuration with the best throughput among those matching `keep`.
template <typename Keep>
const Configuration* best(const std::vector<Configuration>& cs, Keep keep) {
  const Configuration* b = nullptr;
  for (const auto& c : cs) {
    if (inGrid(c) && keep(c) && (!b || c.result.throughput > b->result.throughput * (1 + 1e-9)))
      b = &c;
  }
  return b;
}

// Host ops inside the job hold the accelerator while the host computes them.
void fallbackAdvice(Recommendations& r, const std::vector<ServiceProfile>& profiles) {
  for (const ServiceProfile& p : profiles) {
    const double share = p.times.job_host / p.times.job.front();
    if (share < 0.2) continue;
    r.lines.push_back(nameOf(p.mode) + " cores, batch " + std::to_string(p.batch) + ": " +
                      units::formatWith("%.0f%%", 100 * share) + " of each job (" +
                      ms(p.times.job_host) +
                      ") is host work the accelerator waits on (ops it has no unit for, listed as "
                      "host_ops in --json); running them on the accelerator would free both.");
    return;  // once: the same ops fall back in every profile
  }
}

void workerAdvice(Recommendations& r, const std::vector<Configuration>& cs,
                  const std::vector<ServiceProfile>& profiles) {
  for (const ServiceProfile& p : profiles) {
    auto same = [&](const Configuration& c) { return c.mode == p.mode && c.batch == p.batch; };
    const Configuration* top = best(cs, same);
    if (!top) continue;
    WorkerAdvice a;
    a.mode = p.mode;
    a.batch = p.batch;
    a.saturating = top->workers;
    a.throughput = top->result.throughput;
    for (const auto& c : cs) {
      if (inGrid(c) && same(c) && c.result.throughput >= 0.95 * top->result.throughput &&
          c.workers < a.saturating) {
        a.saturating = c.workers;
        a.throughput = c.result.throughput;
      }
    }
    const double cycle = p.times.pre + p.times.job.front() + p.times.post;
    a.closed_form = static_cast<int>(std::ceil(p.cores * cycle / p.times.job.front() - 1e-9));
    r.workers.push_back(a);
    r.lines.push_back(nameOf(a.mode) + " cores, batch " + std::to_string(a.batch) + ": " +
                      std::to_string(a.saturating) + " worker(s) reach " + rate(a.throughput) +
                      " (within 5% of the best simulated); the service times say " +
                      std::to_string(a.closed_form) +
                      " keep every core busy (cores x (host + job) / job). More workers only add "
                      "memory and queueing delay.");
  }
}

void batchAdvice(Recommendations& r, const std::vector<Configuration>& cs,
                 const std::vector<int>& batches) {
  for (CoreMode m : r.modes) {
    std::vector<const Configuration*> at;
    for (int b : batches)
      at.push_back(best(cs, [&](const Configuration& c) { return c.mode == m && c.batch == b; }));
    int knee = batches.size() > 1 ? batches.front() : 0;
    bool paying = true;
    for (size_t i = 1; i < at.size(); ++i) {
      if (!at[i] || !at[i - 1]) continue;
      BatchStep s{m, batches[i - 1], batches[i],
                  at[i]->result.throughput / at[i - 1]->result.throughput,
                  at[i]->result.latency_p50 / at[i - 1]->result.latency_p50};
      r.batch_steps.push_back(s);
      r.lines.push_back(nameOf(m) + " cores, batch " + std::to_string(s.from) + " -> " +
                        std::to_string(s.to) + ": throughput " + pct(s.throughput_gain) +
                        ", p50 latency " + pct(s.latency_cost) + ".");
      // The knee: the last batch whose step still gained 10% throughput.
      if (paying && s.throughput_gain >= 1.10)
        knee = s.to;
      else
        paying = false;
    }
    r.batch_knee.push_back(knee);
    if (knee > 0 && knee == batches.back() && paying) {
      r.lines.push_back(nameOf(m) + " cores: throughput still gains 10% or more up to batch " +
                        std::to_string(knee) +
                        ", the largest simulated; try larger batches if "
                        "the latency allows.");
    } else if (knee > 0) {
      r.lines.push_back(nameOf(m) + " cores: the batch knee is " + std::to_string(knee) +
                        " (the next batch gains under 10% throughput for its latency).");
    }
  }
}

void coreAdvice(Recommendations& r, const std::vector<Configuration>& cs) {
  if (r.modes.size() < 2) return;
  auto of = [&](CoreMode m) { return [m](const Configuration& c) { return c.mode == m; }; };
  const Configuration* st = best(cs, of(CoreMode::Single));
  const Configuration* ft = best(cs, of(CoreMode::Fused));
  // Latency: one request alone, the smallest batch and worker count simulated.
  auto alone = [&](CoreMode m) {
    const Configuration* a = nullptr;
    for (const auto& c : cs) {
      if (inGrid(c) && c.mode == m &&
          (!a || std::make_pair(c.batch, c.workers) < std::make_pair(a->batch, a->workers)))
        a = &c;
    }
    return a;
  };
  const Configuration* sl = alone(CoreMode::Single);
  const Configuration* fl = alone(CoreMode::Fused);
  if (!st || !ft || !sl || !fl) return;
  const bool fused_latency = fl->result.latency_p50 < sl->result.latency_p50;
  r.lines.push_back(std::string("for latency use ") + (fused_latency ? "fused" : "single") +
                    " cores: p50 " + ms(fl->result.latency_p50) + " fused vs " +
                    ms(sl->result.latency_p50) + " single (batch " + std::to_string(sl->batch) +
                    ", " + std::to_string(sl->workers) + " worker(s)).");
  const bool fused_throughput = ft->result.throughput > st->result.throughput;
  r.lines.push_back(std::string("for throughput use ") + (fused_throughput ? "fused" : "single") +
                    " cores: " + rate(ft->result.throughput) + " fused vs " +
                    rate(st->result.throughput) + " single at their best configurations.");
}

void dtypeAdvice(Recommendations& r, const std::vector<Configuration>& cs,
                 const std::vector<ServiceProfile>& profiles,
                 const std::vector<ServiceProfile>& variants,
                 const std::vector<std::string>& names) {
  for (size_t i = 0; i < variants.size(); ++i) {
    const Configuration* v = nullptr;
    for (const auto& c : cs) {
      if (c.variant == names[i]) v = &c;
    }
    if (!v) continue;
    const Configuration* base = nullptr;
    for (const auto& c : cs) {
      if (inGrid(c) && c.mode == v->mode && c.batch == v->batch && c.workers == v->workers)
        base = &c;
    }
    const ServiceProfile* bp = profileOf(profiles, v->mode, v->batch);
    if (!base || !bp) continue;
    DtypeSaving d;
    d.variant = names[i];
    d.host_seconds =
        (bp->times.pre + bp->times.post - variants[i].times.pre - variants[i].times.post) /
        bp->batch;
    d.throughput_gain = v->result.throughput / base->result.throughput;
    r.dtypes.push_back(d);
    r.lines.push_back(d.variant + " saves " + ms(d.host_seconds) +
                      " of host time per request; throughput " + pct(d.throughput_gain) + " at " +
                      nameOf(v->mode) + " cores, batch " + std::to_string(v->batch) + ", " +
                      std::to_string(v->workers) + " worker(s).");
  }
}

}  // namespace

Recommendations recommend(const std::vector<Configuration>& configs,
                          const std::vector<ServiceProfile>& profiles,
                          const std::vector<ServiceProfile>& variants,
                          const std::vector<std::string>& variant_names) {
  Recommendations r;
  std::vector<int> batches;
  for (const ServiceProfile& p : profiles) {
    if (std::find(r.modes.begin(), r.modes.end(), p.mode) == r.modes.end())
      r.modes.push_back(p.mode);
    if (std::find(batches.begin(), batches.end(), p.batch) == batches.end())
      batches.push_back(p.batch);
  }
  fallbackAdvice(r, profiles);
  workerAdvice(r, configs, profiles);
  batchAdvice(r, configs, batches);
  coreAdvice(r, configs);
  dtypeAdvice(r, configs, profiles, variants, variant_names);
  return r;
}

}  // namespace tessel::serve
