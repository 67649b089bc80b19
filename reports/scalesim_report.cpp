#include "reports/scalesim_report.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>

#include "sim/scalesim/stats_keys.h"

namespace tessel::reports {
namespace {

using sim::OpStats;
using sim::Operand;

const std::string* entry(const OpStats& op, std::string_view key) {
  for (const auto& [k, v] : op.mapping) {
    if (k == key) return &v;
  }
  return nullptr;
}

double number(const OpStats& op, std::string_view key) {
  const std::string* v = entry(op, key);
  return v ? std::strtod(v->c_str(), nullptr) : 0.0;
}

// Bytes of one operand at the level nearest the array that moved it (SCALE-Sim's SRAM), and at
// the outermost level (its DRAM). SCALE-Sim's words are one byte.
double nearestBytes(const OpStats& op, Operand t) {
  const int i = static_cast<int>(t);
  for (auto it = op.traffic.rbegin(); it != op.traffic.rend(); ++it) {
    const int64_t b = t == Operand::Output ? it->write_bytes[i] : it->read_bytes[i];
    if (b > 0) return static_cast<double>(b);
  }
  return 0;
}
double outermostBytes(const OpStats& op, Operand t) {
  if (op.traffic.empty()) return 0;
  const int i = static_cast<int>(t);
  return static_cast<double>(op.traffic.front().read_bytes[i] + op.traffic.front().write_bytes[i]);
}

bool isLayer(const OpStats& op) {
  const bool gemm = op.kind == models::OpKind::MatMul || op.kind == models::OpKind::BatchMatMul ||
                    op.kind == models::OpKind::Conv2d;
  return gemm && op.placement == sim::Placement::Array;
}

std::string row(int id, const std::vector<std::string>& fields) {
  std::string line = std::to_string(id);
  for (const auto& f : fields) line += ", " + f;
  return line + ",\n";
}

}  // namespace

std::string pythonFloat(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  const std::string s(buf, r.ptr);  // "-d.ddde+XX"
  const size_t e = s.find('e');
  const bool neg = s[0] == '-';
  std::string digits;
  for (size_t i = neg ? 1 : 0; i < e; ++i) {
    if (s[i] != '.') digits += s[i];
  }
  const int exp10 = std::atoi(s.c_str() + e + 1);
  const int point = exp10 + 1;  // digits are 0.d1d2... x 10^point
  std::string out = neg ? "-" : "";
  if (point > -4 && point <= 16) {
    if (point <= 0) {
      out += "0." + std::string(static_cast<size_t>(-point), '0') + digits;
    } else if (static_cast<size_t>(point) >= digits.size()) {
      out += digits + std::string(static_cast<size_t>(point) - digits.size(), '0') + ".0";
    } else {
      out += digits.substr(0, static_cast<size_t>(point)) + "." + digits.substr(point);
    }
    return out;
  }
  out += digits.substr(0, 1);
  if (digits.size() > 1) out += "." + digits.substr(1);
  const int a = std::abs(exp10);
  return out + (exp10 < 0 ? "e-" : "e+") + (a < 10 ? "0" : "") + std::to_string(a);
}

ScaleSimReports scaleSimReports(const sim::RunStats& run) {
  ScaleSimReports out{kScaleSimComputeHeader, kScaleSimBandwidthHeader};
  const double pes = static_cast<double>(run.pes);
  int id = 0;
  for (const OpStats& op : run.ops) {
    if (!isLayer(op)) continue;
    const double cycles = op.cycles;
    const auto total = static_cast<int64_t>(std::llround(cycles));
    const bool scalesim = entry(op, sim::scalesim::kKnobsKey) != nullptr;
    double stall = 0, mapping = 0, compute = 0;
    double sram[3] = {0, 0, 0};
    if (scalesim) {
      stall = number(op, sim::scalesim::kStallKey);
      mapping = number(op, sim::scalesim::kMappingEffKey) * 100;
      compute = number(op, sim::scalesim::kComputeUtilKey) * 100;
      sram[0] = number(op, sim::scalesim::kIfmapReadsKey);
      sram[1] = number(op, sim::scalesim::kFilterReadsKey);
      sram[2] = number(op, sim::scalesim::kOfmapWritesKey);
    } else {
      // tessel's stats: stalls are the memory and NoC causes; the compute utilization counts
      // only the cycles not stalled; OpStats has no spatial mapping efficiency, so that column
      // repeats it.
      stall = op.cycles_by_cause[static_cast<int>(sim::Cause::MemoryStall)] +
              op.cycles_by_cause[static_cast<int>(sim::Cause::Noc)];
      const double busy = cycles - stall;
      compute = busy > 0 && pes > 0 ? static_cast<double>(op.macs) * 100 / (busy * pes) : 0;
      mapping = compute;
      for (int t = 0; t < 3; ++t) sram[t] = nearestBytes(op, Operand(t));
    }
    const double overall =
        total > 0 && pes > 0 ? static_cast<double>(op.macs * 100) / (static_cast<double>(total) * pes)
                             : 0;
    out.compute += row(id, {std::to_string(total), std::to_string(std::llround(stall)),
                            pythonFloat(overall), pythonFloat(mapping), pythonFloat(compute)});
    std::vector<std::string> bw;
    for (double b : sram) bw.push_back(pythonFloat(total > 0 ? b / static_cast<double>(total) : 0));
    for (int t = 0; t < 3; ++t) {
      bw.push_back(
          pythonFloat(total > 0 ? outermostBytes(op, Operand(t)) / static_cast<double>(total) : 0));
    }
    out.bandwidth += row(id, bw);
    ++id;
  }
  return out;
}

}  // namespace tessel::reports
