// tessel sweep SPEC -o DIR: every point of a sweep spec, in parallel worker processes (or
// across MPI ranks under mpirun), each finished point appended to DIR/points.jsonl as it
// completes. Ctrl-C stops cleanly (exit 130) and --resume finishes the rest.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "apps/tessel/commands.h"
#include "sweep/mpi.h"
#include "sweep/points.h"
#include "sweep/results_dir.h"
#include "sweep/runner.h"
#include "sweep/spec.h"
#include "sweep/summary.h"
#include "util/error.h"

namespace tessel::app {
namespace {

std::atomic<bool> g_stop{false};

void onSignal(int) { g_stop.store(true); }

// SIGINT/SIGTERM set the stop flag while the sweep runs; the old handlers come back after.
class StopOnSignal {
 public:
  StopOnSignal() {
    struct sigaction sa {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, &old_int_);
    ::sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopOnSignal() {
    ::sigaction(SIGINT, &old_int_, nullptr);
    ::sigaction(SIGTERM, &old_term_, nullptr);
  }

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

// "sweep: 1,234/10,000 points, 3 failed, 210.4 points/s, ETA 42 s" on a terminal's stderr.
class ProgressBar {
 public:
  explicit ProgressBar(bool enabled) : enabled_(enabled && ::isatty(2) == 1) {}
  ~ProgressBar() {
    if (drawn_) std::fprintf(stderr, "\r\033[K");
  }
  void draw(const sweep::Progress& p) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (drawn_ && now - last_ < std::chrono::milliseconds(100) && p.done < p.total) return;
    last_ = now;
    drawn_ = true;
    const double s = std::chrono::duration<double>(now - start_).count();
    const double rate = s > 0 ? static_cast<double>(p.done) / s : 0;
    const double eta = rate > 0 ? static_cast<double>(p.total - p.done) / rate : 0;
    const int width = 24;
    const int filled = p.total > 0 ? static_cast<int>(width * p.done / p.total) : width;
    std::string bar(static_cast<size_t>(filled), '#');
    bar.resize(width, '.');
    std::fprintf(stderr, "\r\033[Ksweep [%s] %lld/%lld points, %lld failed, %.1f points/s, ETA %.0f s",
                 bar.c_str(), static_cast<long long>(p.done), static_cast<long long>(p.total),
                 static_cast<long long>(p.failed), rate, eta);
    std::fflush(stderr);
  }

 private:
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_;
};

// Per workload, the finished point with the lowest cycles that broke no constraint:
// "gpt2-small: #12 (key=value, ...), 1.2e6 cycles".
std::vector<std::string> fastestPoints(const std::string& dir) {
  std::map<std::string, std::pair<double, std::string>> best;  // workload -> (cycles, text)
  for (const std::string& line : sweep::readResultLines(dir + "/results.jsonl")) {
    const auto j = nlohmann::ordered_json::parse(line);
    if (j.value("status", "") != "ok" || !j["metrics"].contains("cycles") || j.contains("violated")) continue;
    const double c = j["metrics"]["cycles"].get<double>();
    const std::string workload = j["params"].value("workload", "");
    auto it = best.find(workload);
    if (it != best.end() && c >= it->second.first) continue;
    std::string text = "#" + std::to_string(j["index"].get<int64_t>()) + " (";
    bool first = true;
    for (const auto& [k, v] : j["params"].items()) {
      if (k == "workload") continue;
      text += (first ? "" : ", ") + k + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
      first = false;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "), %.6g cycles", c);
    best[workload] = {c, text + buf};
  }
  std::vector<std::string> out;
  for (const auto& [workload, b] : best) out.push_back(workload + ": " + b.second);
  return out;
}

// "pareto front (cycles, energy_pj) on gpt2-small seq=512: 4 of 25 points: #1, #6, #7, #12".
std::vector<std::string> frontLines(const sweep::Spec& spec, const sweep::Summary& summary) {
  std::string coordinates;
  for (const sweep::Objective& o : spec.pareto) {
    coordinates += (coordinates.empty() ? "" : ", ") + std::string(o.maximize ? "max " : "") + o.metric;
  }
  std::vector<std::string> lines;
  for (const sweep::ParetoFront& f : summary.fronts) {
    std::string text = "pareto front (" + coordinates + ") on " + f.workload;
    for (const auto& [key, value] : f.options.items()) {
      text += " " + key.substr(9) + "=" + sweep::paramText(value);
    }
    text += ": " + std::to_string(f.indices.size()) + " of " + std::to_string(f.candidates) + " points:";
    for (size_t i = 0; i < f.indices.size(); ++i) {
      text += (i ? ", #" : " #") + std::to_string(f.indices[i]);
    }
    lines.push_back(text);
  }
  return lines;
}

void printSummary(const sweep::Spec& spec, const sweep::PointSet& points, const SweepArgs& args,
                  const sweep::Progress& p, int64_t before, const sweep::Summary& summary,
                  std::ostream& out) {
  out << "sweep '" << spec.name << "': " << points.points.size() << " points";
  if (points.skipped > 0) out << " (" << points.skipped << " more ruled out by constraints)";
  if (before > 0) out << ", " << before << " already done";
  out << "; ran " << p.done << ", " << p.failed << " failed\n";
  if (summary.violated > 0) {
    out << summary.violated << (summary.violated == 1 ? " point" : " points")
        << " broke a constraint on metrics (kept in the results, marked \"violated\")\n";
  }
  out << "results: " << args.out_dir << "/results.jsonl, summary: " << args.out_dir
      << "/summary.json\n";
  for (const std::string& best : fastestPoints(args.out_dir)) out << "fastest on " << best << "\n";
  for (const std::string& line : frontLines(spec, summary)) out << line << "\n";
}

}  // namespace

int sweepCommand(const SweepArgs& args, std::ostream& out) {
  if (args.workers < 0) throw ConfigError({"", 0, 0, "--workers"}, "expected 0 (all cores) or more");
  const sweep::Spec spec = sweep::loadSpec(args.spec);
  const sweep::PointSet points = sweep::generatePoints(spec);
  if (args.dry_run) {
    out << "sweep '" << spec.name << "': " << points.points.size() << " points ("
        << points.skipped << " ruled out by constraints)\n";
    for (const sweep::Point& p : points.points) {
      out << "  #" << p.index << " " << p.workload;
      for (const sweep::Assignment& a : p.values) {
        if (a.key.rfind("workload.", 0) == 0) out << " --" << a.key.substr(9) << " " << a.value;
      }
      if (!p.value("arch").empty()) out << " [" << p.value("arch") << "]";
      for (const std::string& o : p.overrides()) out << " -p " << o;
      if (!p.value("dataflow").empty()) out << " --dataflow " << p.value("dataflow");
      out << "\n";
    }
    return 0;
  }
  if (args.out_dir.empty()) throw ConfigError({"", 0, 0, "-o"}, "name the output folder: -o DIR");
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  sweep::RunnerOptions options;
  options.workers = args.workers > 0 ? args.workers : static_cast<int>(cores);
  options.stop = &g_stop;
  ProgressBar bar(!args.quiet);
  options.progress = [&](const sweep::Progress& p) { bar.draw(p); };
  g_stop.store(false);
  StopOnSignal signals;
  sweep::Outcome outcome;
  int64_t before = 0;
  bool report = true;
  if (sweep::mpiWorldSize() > 1) {
    outcome = sweep::runMpi(spec, points, args.out_dir, args.resume, options, report);
  } else {
    sweep::ResultsDir dir = sweep::ResultsDir::open(args.out_dir, spec, points, args.resume);
    before = static_cast<int64_t>(dir.done().size());
    outcome = sweep::runLocal(spec, points, dir, options);
    if (!outcome.interrupted) dir.finish();
  }
  if (!report) return outcome.interrupted ? 130 : 0;
  const auto& p = outcome.progress;
  if (outcome.interrupted) {
    std::cerr << "interrupted: " << p.done << " of " << p.total << " points written to "
              << args.out_dir << "/points.jsonl; run again with --resume to finish\n";
    return 130;
  }
  const sweep::Summary summary = sweep::writeSummary(spec, args.out_dir);
  if (!args.quiet) printSummary(spec, points, args, p, before, summary, out);
  // The notes are findings about the design space, not progress: printed even with -q.
  out.flush();
  for (const sweep::AxisNote& n : summary.notes) std::cerr << "note: " << n.message << "\n";
  return 0;
}

}  // namespace tessel::app
