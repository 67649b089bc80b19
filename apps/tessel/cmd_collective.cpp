// tessel collective: one collective (or a curve over message sizes) on a system's interconnect:
// its time, the algorithm chosen, steps and bytes per link, as a table or JSON.
#include <cmath>
#include <optional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "apps/tessel/commands.h"
#include "systems/collective.h"
#include "systems/system.h"
#include "util/units.h"

namespace tessel::app {

namespace {

// "1MiB" -> {1 MiB}; "64KiB..16MiB" -> 64 KiB, 128 KiB, ... 16 MiB (doubling, as nccl-tests -f 2).
std::vector<double> sizesOf(const std::string& text) {
  const SourceLocation where{"", 0, 0, "--bytes"};
  const size_t dots = text.find("..");
  if (dots == std::string::npos) {
    const uint64_t b = units::parseBytes(text, where);
    if (b == 0) throw ConfigError(where, "the message must be at least 1 byte");
    return {static_cast<double>(b)};
  }
  const uint64_t lo = units::parseBytes(text.substr(0, dots), where);
  const uint64_t hi = units::parseBytes(text.substr(dots + 2), where);
  if (lo == 0 || hi < lo)
    throw ConfigError(where, "a range FROM..TO needs 1 <= FROM <= TO, got '" + text + "'");
  std::vector<double> sizes;
  for (uint64_t b = lo; b <= hi && sizes.size() < 64; b *= 2) sizes.push_back(static_cast<double>(b));
  return sizes;
}

std::string lpadded(const std::string& s, size_t w) { return s.size() >= w ? " " + s : std::string(w - s.size(), ' ') + s; }
std::string microseconds(double s) { return units::formatWith("%.2f", s * 1e6) + " us"; }
std::string gbps(double bytes, double s) { return units::formatWith("%.2f", s > 0 ? bytes / s / 1e9 : 0.0); }

std::string shapeOf(const systems::Topology& t) {
  std::string s;
  for (const systems::Dim& d : t.dims)
    s += (s.empty() ? "" : " x ") + std::to_string(d.size) + " " + std::string(nameOf(d.kind));
  return s;
}

nlohmann::ordered_json toJson(const systems::CollectiveCost& c, double bytes, systems::Collective op, int ranks) {
  nlohmann::ordered_json j;
  j["bytes"] = bytes;
  j["seconds"] = c.seconds;
  j["algorithm"] = c.algorithm;
  j["steps"] = c.steps;
  j["bytes_per_link"] = c.bytes_per_link;
  j["chunks"] = c.chunks;
  j["overhead_seconds"] = c.overhead_s;
  j["latency_seconds"] = c.latency_s;
  j["transfer_seconds"] = c.bandwidth_s;
  j["link_bytes"] = c.link_bytes;
  j["energy_pj"] = c.energy_pj;
  const double algbw = c.seconds > 0 ? bytes / c.seconds : 0;
  j["algbw_gbps"] = algbw / 1e9;
  j["busbw_gbps"] = algbw * systems::busFactor(op, ranks) / 1e9;
  return j;
}

void printOne(const std::vector<systems::CollectiveCost>& all, const systems::CollectiveCost& c,
              double bytes, systems::Collective op, int ranks, std::optional<double> executed,
              std::ostream& out) {
  const double algbw = c.seconds > 0 ? bytes / c.seconds : 0;
  out << "  time            " << microseconds(c.seconds) << " (call " << microseconds(c.overhead_s)
      << ", link latency " << microseconds(c.latency_s) << ", transfer " << microseconds(c.bandwidth_s) << ")\n";
  if (executed)
    out << "  SystemC fabric  " << microseconds(*executed) << " (" << units::formatWith("%.3f", *executed / c.seconds)
        << "x the step model)\n";
  out
      << "  algorithm       " << c.algorithm << "\n"
      << "  steps           " << units::formatCount(c.steps)
      << (c.chunks > 1 ? " (in " + units::formatCount(c.chunks) + " chunks)" : "") << "\n"
      << "  bytes per link  " << units::formatCount(static_cast<int64_t>(std::llround(c.bytes_per_link)))
      << " (the busiest link, one direction)\n"
      << "  algbw, busbw    " << gbps(bytes, c.seconds) << ", "
      << units::formatWith("%.2f", algbw * systems::busFactor(op, ranks) / 1e9) << " GB/s\n"
      << "  energy          " << units::formatWith("%.3f", c.energy_pj / 1e6) << " uJ\n";
  if (all.size() < 2) return;
  out << "\nAlgorithms            time      steps   bytes per link\n";
  for (const systems::CollectiveCost& a : all) {
    std::ostringstream line;
    line << "  " << a.algorithm << std::string(a.algorithm.size() < 18 ? 18 - a.algorithm.size() : 1, ' ')
         << std::string(14 > microseconds(a.seconds).size() ? 14 - microseconds(a.seconds).size() : 1, ' ')
         << microseconds(a.seconds) << std::string(11 - std::min<size_t>(10, units::formatCount(a.steps).size()), ' ')
         << units::formatCount(a.steps) << "   " << units::formatCount(static_cast<int64_t>(std::llround(a.bytes_per_link)));
    out << line.str() << "\n";
  }
}

}  // namespace

int collectiveCommand(const CollectiveArgs& args, std::ostream& out) {
  checkOutputs({{"--json", args.json_path}}, {args.system});
  const systems::System sys = systems::loadSystem(args.system, args.overrides);
  const auto op = systems::parseCollective(args.op);
  if (!op)
    throw ConfigError({"", 0, 0, "--op"}, "unknown collective '" + args.op +
                                              "'; expected all-reduce, all-gather, reduce-scatter, "
                                              "all-to-all, send-recv or broadcast");
  const int64_t group = args.group > 0 ? args.group : sys.count;
  if (group > sys.count)
    throw ConfigError({"", 0, 0, "--group"}, "a group of " + std::to_string(group) +
                                                 " chips is larger than the system's " +
                                                 std::to_string(sys.count));
  if (*op == systems::Collective::SendRecv && group < 2)
    throw ConfigError({"", 0, 0, "--group"}, "send-recv needs a group of at least 2 chips");
  std::string why;
  const systems::Topology placed = sys.topology.group(group, why);
  if (!why.empty()) throw ConfigError({"", 0, 0, "--group"}, why);
  const systems::Network net(placed);
  const std::vector<double> sizes = sizesOf(args.bytes);
  // An algorithm that does not apply, or a collective none serves, fails before anything prints.
  systems::costCollective({*op, sizes.front(), args.algorithm}, net, sys.collective_overhead_s);

  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  const bool quiet = args.quiet || isStandardOutput(args.json_path);  // the JSON is the output
  if (!quiet) {
    out << "system " << sys.name << ": " << sys.count << " x " << sys.chip.name << ", "
        << shapeOf(sys.topology) << " | " << nameOf(*op) << " over " << group << " chips ("
        << shapeOf(placed) << ")\n";
  }
  if (sizes.size() > 1 && !quiet)
    out << "\n        bytes          time  algorithm              algbw GB/s  busbw GB/s"
        << (args.engine != "analytical" ? "       SystemC   ratio" : "") << "\n";
  for (double bytes : sizes) {
    const std::vector<systems::CollectiveCost> all = systems::costAll(*op, bytes, net, sys.collective_overhead_s);
    // The cheapest is the first of `all` (the probe above made sure there is one).
    const systems::CollectiveCost c =
        args.algorithm.empty() ? all.front()
                               : systems::costCollective({*op, bytes, args.algorithm}, net, sys.collective_overhead_s);
    std::optional<double> executed;
    if (args.engine != "analytical") {
      executed = systems::executeCollective({*op, bytes, c.algorithm}, net, sys.collective_overhead_s);
      if (!executed) throw ConfigError({"", 0, 0, "--engine"}, "this binary has no SystemC fabric");
    }
    nlohmann::ordered_json point = toJson(c, bytes, *op, static_cast<int>(group));
    if (executed) point["systemc_seconds"] = *executed;
    if (args.engine == "systemc") point["seconds"] = *executed;  // the engine asked for
    points.push_back(point);
    if (quiet) continue;
    if (sizes.size() == 1) {
      out << "  message         " << units::formatBytes(static_cast<uint64_t>(bytes)) << "\n";
      printOne(all, c, bytes, *op, static_cast<int>(group), executed, out);
      continue;
    }
    std::ostringstream line;
    const std::string b = units::formatCount(static_cast<int64_t>(bytes)), t = microseconds(c.seconds);
    line << std::string(13 > b.size() ? 13 - b.size() : 1, ' ') << b
         << std::string(14 > t.size() ? 14 - t.size() : 1, ' ') << t << "  " << c.algorithm
         << std::string(c.algorithm.size() < 22 ? 22 - c.algorithm.size() : 1, ' ')
         << units::formatWith("%10.2f", bytes / c.seconds / 1e9)
         << units::formatWith("%12.2f", bytes / c.seconds * systems::busFactor(*op, static_cast<int>(group)) / 1e9);
    if (executed) line << lpadded(microseconds(*executed), 14) << units::formatWith("%8.3f", *executed / c.seconds);
    out << line.str() << "\n";
  }
  if (!args.json_path.empty()) {
    nlohmann::ordered_json j = sizes.size() == 1 ? points[0] : nlohmann::ordered_json::object();
    j["system"] = sys.name;
    j["op"] = std::string(nameOf(*op));
    j["group"] = group;
    if (sizes.size() > 1) j["points"] = points;
    writeOutput(args.json_path, j.dump(2) + "\n", out);
  }
  return 0;
}

}  // namespace tessel::app
