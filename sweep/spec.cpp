#include "sweep/spec.h"

#include "util/input_file.h"
#include "util/paths.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "arch/schema.h"
#include "sweep/expression.h"
#include "sweep/random.h"
#include "sweep/spec_results.h"
#include "util/suggest.h"
#include "util/yaml.h"

namespace tessel::sweep {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kWorkloadOptions = {"seq",    "batch",  "phase",
                                                   "image",  "layers", "sparsity"};

// The spec itself and the files it names (designs, studies) follow the one rule for input files
// (util/input_file.h); a named file's error also carries where the spec names it.
std::string readText(const std::string& path, const SourceLocation& where) {
  try {
    return readInputFile(path, "a YAML file", size_t{16} << 20);
  } catch (const ConfigError& e) {
    if (where.file.empty() || where.file == path) throw;
    throw ConfigError(where, "'" + path + "': " + e.message());
  }
}

// Every accelerator parameter path ("scratchpad.capacity", "host.link.bandwidth"), and those
// whose values are maps that a key may index one level further ("host.cycles_per_element").
struct ArchPaths {
  std::vector<std::string> all;
  std::set<std::string> maps;
};

const ArchPaths& archPaths() {
  static const ArchPaths paths = [] {
    ArchPaths p;
    for (const arch::SectionSpec& s : arch::schema()) {
      for (const arch::ParamSpec& param : s.params) {
        const std::string path = yaml::joinPath(s.path, param.key);
        p.all.push_back(path);
        if (param.type == arch::ValueType::DTypeRates || param.type == arch::ValueType::OpCosts ||
            param.type == arch::ValueType::TensorBytes) {
          p.maps.insert(path);
        }
      }
    }
    return p;
  }();
  return paths;
}

void checkKey(const std::string& key, const yaml::Node& at) {
  if (key == "dataflow") return;
  if (key.rfind("workload.", 0) == 0) {
    const std::string option = key.substr(9);
    for (const std::string& o : kWorkloadOptions) {
      if (o == option) return;
    }
    at.fail("unknown workload option '" + option + "' (accepted: " + joinNames(kWorkloadOptions) +
            ")");
  }
  const ArchPaths& paths = archPaths();
  for (const std::string& p : paths.all) {
    if (p == key) return;
  }
  for (const arch::SectionSpec& s : arch::schema()) {
    if (!s.path.empty() && s.path == key) return;  // a whole section: "sfu: [null, {...}]"
  }
  if (paths.maps.count(yaml::parentPath(key))) return;
  std::vector<std::string> candidates = paths.all;
  candidates.push_back("dataflow");
  for (const std::string& o : kWorkloadOptions) candidates.push_back("workload." + o);
  at.fail("'" + key + "' is not an accelerator parameter, 'dataflow' or a workload option" +
          didYouMean(key, candidates) + " (`tessel arch schema` lists the parameters)");
}

// A value as the YAML text an override takes: a scalar as written, null as "null" (the key is
// removed: "sfu: [null, {...}]" sweeps a design without and with an SFU), a list or mapping
// in flow style.
std::string valueText(const yaml::Node& v) {
  if (v.isScalar()) return v.scalar();
  if (v.isNull()) return "null";
  std::string s;
  if (v.isSequence()) {
    for (const yaml::Node& item : v.items()) s += (s.empty() ? "" : ", ") + valueText(item);
    return "[" + s + "]";
  }
  for (const auto& [k, item] : v.entries()) {
    s += (s.empty() ? "" : ", ") + k.scalar() + ": " + valueText(item);
  }
  return "{" + s + "}";
}

std::vector<std::string> valuesOf(const yaml::Node& v) {
  std::vector<std::string> values;
  if (!v.isSequence()) {
    values.push_back(valueText(v));
    return values;
  }
  for (const yaml::Node& item : v.items()) values.push_back(valueText(item));
  if (values.empty()) v.fail("expected at least one value, got an empty list");
  return values;
}

void addKey(Spec& spec, const std::string& key) {
  for (const std::string& k : spec.keys) {
    if (k == key) return;
  }
  spec.keys.push_back(key);
}

void readGrid(Spec& spec, const yaml::Node& grid) {
  for (const auto& [k, v] : yaml::MapReader(grid).node().entries()) {
    const std::string key = k.scalar();
    checkKey(key, k);
    Choices axis;
    for (const std::string& value : valuesOf(v)) axis.push_back({{key, value}});
    spec.sources.push_back(std::move(axis));
    addKey(spec, key);
  }
}

void readList(Spec& spec, const yaml::Node& list) {
  Choices points;
  for (const yaml::Node& item : list.items()) {
    std::vector<Assignment> point;
    for (const auto& [k, v] : yaml::MapReader(item).node().entries()) {
      checkKey(k.scalar(), k);
      point.push_back({k.scalar(), valueText(v)});
      addKey(spec, k.scalar());
    }
    if (point.empty()) item.fail("expected a mapping of key: value, got an empty point");
    points.push_back(std::move(point));
  }
  if (points.empty()) list.fail("expected at least one point, got an empty list");
  spec.sources.push_back(std::move(points));
}

void readRandom(Spec& spec, const yaml::Node& node) {
  yaml::MapReader r(node);
  const int64_t samples = r.required<int64_t>("samples", "how many points to draw");
  if (samples <= 0 || samples > 10'000'000) {
    r.require("samples", "").fail("expected 1 to 10,000,000 samples");
  }
  const uint64_t seed = static_cast<uint64_t>(r.optional<int64_t>("seed", 1, "the generator's seed"));
  std::vector<RandomKey> keys;
  for (const auto& [k, v] : r.require("keys", "the keys to draw and their ranges").entries()) {
    checkKey(k.scalar(), k);
    keys.push_back(randomKey(k.scalar(), v));
    addKey(spec, k.scalar());
  }
  r.finish();
  if (keys.empty()) node.fail("expected at least one key under 'keys'");
  spec.sources.push_back(drawSamples(keys, samples, seed));
}

// A model file (.onnx, a config .json, a SCALE-Sim topology .csv) named relative to the spec is
// found beside it, as the base accelerator is.
std::string resolveModelFile(const std::string& name, const std::string& spec_path) {
  auto endsWith = [&](const std::string& tail) {
    return name.size() >= tail.size() && name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
  };
  if (!(endsWith(".onnx") || endsWith(".json") || endsWith(".csv"))) return name;
  return resolveBeside(spec_path, name);
}

WorkloadSpec readWorkload(Spec& spec, const yaml::Node& node) {
  WorkloadSpec w;
  if (node.isScalar()) {
    w.name = resolveModelFile(node.scalar(), spec.path);
    return w;
  }
  yaml::MapReader r(node);
  w.name = resolveModelFile(
      r.required<std::string>("name", "a workload name, as for `tessel run --workload`"), spec.path);
  for (const std::string& option : kWorkloadOptions) {
    const auto v = r.find(option);
    if (!v) continue;
    const std::string key = "workload." + option;
    const std::vector<std::string> values = valuesOf(*v);
    if (v->isSequence()) {
      Choices axis;
      for (const std::string& value : values) axis.push_back({{key, value}});
      w.swept.push_back(std::move(axis));
      addKey(spec, key);
    } else {
      w.options.push_back({key, values.front()});
      addKey(spec, key);
    }
  }
  r.finish();
  return w;
}

void readMapper(Spec& spec, const yaml::Node& node) {
  if (node.isScalar()) {
    spec.mapper = node.scalar();
  } else {
    yaml::MapReader r(node);
    spec.mapper = r.optional<std::string>("name", spec.mapper, "search or gemmini-auto");
    spec.objective = r.optional<std::string>("objective", spec.objective, "latency, energy, edp");
    spec.budget = r.optional<int64_t>("budget", spec.budget, "cost evaluations per layer");
    spec.fusion = r.optional<std::string>("fusion", spec.fusion, "none, epilogue or auto");
    r.finish();
    if (spec.fusion != "none" && spec.fusion != "epilogue" && spec.fusion != "auto") {
      r.require("fusion", "").fail("expected none, epilogue or auto");
    }
    if (spec.objective != "latency" && spec.objective != "energy" && spec.objective != "edp") {
      r.require("objective", "").fail("expected latency, energy or edp");
    }
    if (spec.budget < 0) r.require("budget", "").fail("expected 0 (exhaustive) or more");
  }
  if (spec.mapper != "search" && spec.mapper != "gemmini-auto") {
    node.fail("unknown mapper '" + spec.mapper + "' (accepted: search, gemmini-auto)");
  }
}

std::string hashText(const std::string& text) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

Base readBase(const yaml::Node& node, const std::string& spec_path) {
  const fs::path given = fs::path(node.scalar("an accelerator YAML file"));
  Base b;
  b.path = resolveBeside(spec_path, given.string());
  b.name = given.stem().string();
  b.text = readText(b.path, node.where());
  return b;
}

void readBases(Spec& spec, yaml::MapReader& top, const std::string& path) {
  const auto base = top.find("base");
  const auto designs = top.find("designs");
  if (base && designs) designs->fail("give either base: (one file) or designs: (a list), not both");
  if (base) {
    spec.bases.push_back(readBase(*base, path));
    return;
  }
  if (!designs) top.require("base", "the accelerator YAML every point starts from (or designs:)");
  for (const yaml::Node& d : designs->items()) {
    Base b = readBase(d, path);
    for (const Base& other : spec.bases) {
      if (other.name == b.name) d.fail("two designs are named '" + b.name + "' (by file stem)");
    }
    spec.bases.push_back(std::move(b));
  }
  if (spec.bases.empty()) designs->fail("expected at least one accelerator file");
}

}  // namespace

const Base& Spec::baseOf(const std::string& arch) const {
  for (const Base& b : bases) {
    if (b.name == arch) return b;
  }
  return bases.front();
}

Spec loadSpec(const std::string& path) {
  return parseSpec(readText(path, {path, 0, 0, ""}), path);
}

Spec parseSpec(const std::string& text, const std::string& path) {
  Spec spec;
  spec.path = path;
  const yaml::Document doc = yaml::Document::fromString(text, path);
  yaml::MapReader top(doc.root());
  spec.name = top.optional<std::string>("name", fs::path(path).stem().string(), "the sweep's name");
  readBases(spec, top, path);
  spec.engine = top.optional<std::string>("engine", spec.engine, "analytical or systemc");
  if (spec.engine != "analytical" && spec.engine != "systemc") {
    top.require("engine", "").fail("unknown engine '" + spec.engine + "' (accepted: analytical, systemc)");
  }
  if (auto m = top.find("mapper")) readMapper(spec, *m);
  spec.dataflow = top.optional<std::string>("dataflow", "", "the dataflow of every point");
  if (!spec.dataflow.empty()) addKey(spec, "dataflow");
  const yaml::Node workloads = top.require("workloads", "the workloads each point runs");
  if (!workloads.isSequence()) workloads.fail("expected a list of workloads, got " + workloads.describe());
  addKey(spec, "workload");
  for (const yaml::Node& w : workloads.items()) spec.workloads.push_back(readWorkload(spec, w));
  if (spec.workloads.empty()) workloads.fail("expected at least one workload");
  if (spec.bases.size() > 1) {
    Choices designs;
    for (const Base& b : spec.bases) designs.push_back({{"arch", b.name}});
    spec.sources.insert(spec.sources.begin(), std::move(designs));
    addKey(spec, "arch");
  }
  if (auto g = top.find("grid")) readGrid(spec, *g);
  if (auto l = top.find("list")) readList(spec, *l);
  if (auto r = top.find("random")) readRandom(spec, *r);
  if (auto d = top.find("derived")) {
    for (const auto& [k, v] : yaml::MapReader(*d).node().entries()) {
      checkKey(k.scalar(), k);
      spec.derived.push_back({k.scalar(), v.scalar("an expression"), v.where()});
      addKey(spec, k.scalar());
    }
  }
  if (auto c = top.find("constraints")) readConstraints(spec, *c);
  if (auto m = top.find("metrics")) {
    readMetrics(spec, *m);
  } else {
    spec.metrics = metricNames();
  }
  if (auto p = top.find("pareto")) readPareto(spec, *p);
  top.finish();
  std::string hashed = text;
  for (const Base& b : spec.bases) hashed += '\0' + b.text;
  spec.hash = hashText(hashed);
  return spec;
}

}  // namespace tessel::sweep
