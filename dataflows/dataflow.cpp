#include "dataflows/dataflow.h"

#include <algorithm>
#include <filesystem>

#include "arch/schema.h"
#include "dataflows/nest/hardware.h"
#include "util/suggest.h"
#include "util/yaml.h"

namespace tessel::dataflows {

const std::vector<std::pair<std::string, std::string>>& embeddedDataflows();

namespace {

Dim parseDim(const yaml::Node& node) {
  const std::string& s = node.scalar("a GEMM dim (m, n or k)");
  if (s == "m") return Dim::M;
  if (s == "n") return Dim::N;
  if (s == "k") return Dim::K;
  node.fail("expected a GEMM dim (m, n or k), got '" + s + "'");
}

Operand parseOperand(const yaml::Node& node) {
  const std::string& s = node.scalar("an operand (inputs, weights or outputs)");
  if (s == "inputs") return Operand::Input;
  if (s == "weights") return Operand::Weight;
  if (s == "outputs") return Operand::Output;
  node.fail("expected an operand (inputs, weights or outputs), got '" + s + "'" +
            didYouMean(s, {"inputs", "weights", "outputs"}));
}

void checkArrays(const yaml::Node& node) {
  const std::vector<std::string> known{"systolic", "spatial"};
  for (const auto& item : node.items()) {
    const std::string& k = item.scalar();
    if (std::find(known.begin(), known.end(), k) == known.end()) {
      item.fail("unknown array kind '" + k + "' (accepted: systolic, spatial)" +
                didYouMean(k, known));
    }
  }
}

}  // namespace

Dataflow parseDataflow(const std::string& text, const std::string& source_name) {
  return parseDataflow(yaml::Document::fromString(text, source_name), source_name);
}

namespace {

std::vector<nest::Dim> parseNestDims(const yaml::Node& node) {
  std::vector<nest::Dim> dims;
  for (const auto& item : node.items()) {
    const std::string& s = item.scalar("a loop dim (G, N, K, C, P, Q, R or S)");
    const auto d = nest::dimFromConvName(s);
    if (!d) {
      item.fail("expected a loop dim (G, N, K, C, P, Q, R or S), got '" + s +
                "'; GEMMs map m to P, n to K and k to C");
    }
    if (std::find(dims.begin(), dims.end(), *d) != dims.end()) item.fail("'" + s + "' is listed twice");
    dims.push_back(*d);
  }
  return dims;
}

// The loop dims a GEMM dim stands for when a convolution is seen as a GEMM (im2col).
std::vector<nest::Dim> nestDimsOf(Dim d) {
  switch (d) {
    case Dim::M:
      return {nest::Dim::N, nest::Dim::P, nest::Dim::Q};
    case Dim::N:
      return {nest::Dim::K};
    case Dim::K:
      return {nest::Dim::C, nest::Dim::R, nest::Dim::S};
  }
  return {};
}

// A level a dataflow file may name: dram, l2, local (the buffers next to the array) or pe.
std::optional<nest::Role> roleOf(const yaml::Node& key) {
  const std::string& name = key.scalar("a level (dram, l2, local, pe)");
  const auto role = nest::roleFromName(name);
  if (!role) key.fail("unknown level '" + name + "'; accepted: dram, l2, local, pe");
  return role;
}

nest::Constraints parseNest(const yaml::Node& node) {
  yaml::MapReader r(node);
  nest::Constraints c;
  c.rows = parseNestDims(r.require("rows", "loop dims that may be unrolled across array rows"));
  c.cols = parseNestDims(r.require("cols", "loop dims that may be unrolled across array columns"));
  if (auto keeps = r.find("pe_keeps")) {
    for (const auto& item : keeps->items()) c.pe_keeps[nest::at(parseOperand(item))] = true;
  }
  if (auto loops = r.find("pe_loops")) c.pe_loops = parseNestDims(*loops);
  if (auto orders = r.find("orders")) {
    for (const auto& [key, value] : orders->entries()) {
      const auto role = roleOf(key);
      auto& allowed = c.orders[static_cast<size_t>(*role)];
      for (const auto& item : value.items()) allowed.push_back(parseNestDims(item));
      if (allowed.empty()) value.fail("must list at least one order, e.g. [[K, C, P]]");
    }
  }
  if (auto bypass = r.find("bypass")) {
    for (const auto& [key, value] : bypass->entries()) {
      const auto role = roleOf(key);
      if (*role == nest::Role::Dram || *role == nest::Role::Pe) {
        key.fail("only l2 and local may be bypassed (DRAM holds every tensor; what the PEs keep is "
                 "pe_keeps)");
      }
      for (const auto& item : value.items()) {
        c.bypass[static_cast<size_t>(*role)][nest::at(parseOperand(item))] = true;
      }
    }
  }
  r.finish();
  bool keeps_any = false;
  for (bool k : c.pe_keeps) keeps_any = keeps_any || k;
  if (!c.pe_loops.empty() && !keeps_any) {
    node.fail("pe_loops needs pe_keeps: a PE that keeps nothing has nothing to loop over");
  }
  return c;
}

}  // namespace

Dataflow parseDataflow(const yaml::Document& doc, const std::string& source_name) {
  yaml::MapReader top(doc.root());
  Dataflow df;
  df.source = source_name;
  df.name = top.required<std::string>("name", "the dataflow's short name (ws, os, ...)");
  df.description = top.optional<std::string>("description", "", "one line for reports");
  const auto stationary = top.find("stationary");
  const auto spatial_node = top.find("spatial");
  const auto stream = top.find("stream");
  const auto nest_node = top.find("nest");
  df.gemm_view = stationary || spatial_node || stream;
  if (df.gemm_view) {
    df.stationary = parseOperand(top.require("stationary", "operand held in the PEs"));
    yaml::MapReader spatial(top.require("spatial", "GEMM dims unrolled over the array"));
    df.row_dim = parseDim(spatial.require("rows", "GEMM dim across array rows"));
    df.col_dim = parseDim(spatial.require("cols", "GEMM dim across array columns"));
    spatial.finish();
    const yaml::Node s = top.require("stream", "GEMM dim that flows through time");
    df.stream_dim = parseDim(s);
    if (df.row_dim == df.col_dim || df.row_dim == df.stream_dim || df.col_dim == df.stream_dim) {
      s.fail("spatial.rows, spatial.cols and stream must be three different dims");
    }
    if (Problem::dependsOn(df.stationary, df.stream_dim)) {
      top.require("stationary", "")
          .fail("the stationary operand must not depend on the stream dim '" +
                std::string(nameOf(df.stream_dim)) + "'");
    }
  } else if (!nest_node) {
    top.require("nest", "loop-nest constraints (or the GEMM keys stationary, spatial, stream)");
  }
  if (nest_node) {
    df.nest = parseNest(*nest_node);
  } else {
    df.nest.rows = nestDimsOf(df.row_dim);
    df.nest.cols = nestDimsOf(df.col_dim);
    df.nest.pe_keeps[nest::at(df.stationary)] = true;
    df.nest.pe_loops = nestDimsOf(df.stream_dim);
  }
  const yaml::Node arrays = top.require("arrays", "array kinds that can run it");
  df.array_kinds = arrays.as<std::vector<std::string>>();
  checkArrays(arrays);
  if (df.array_kinds.empty()) arrays.fail("must name at least one array kind (systolic, spatial)");
  top.finish();
  return df;
}

std::vector<std::string> builtinDataflows() {
  std::vector<std::string> names;
  for (const auto& entry : embeddedDataflows()) names.push_back(entry.first);
  return names;
}

Dataflow loadDataflow(const std::string& name_or_path) {
  for (const auto& [name, text] : embeddedDataflows()) {
    if (name == name_or_path) return parseDataflow(text, "configs/dataflows/" + name + ".yaml");
  }
  auto endsWith = [&](const char* ext) {
    const std::string e(ext);
    return name_or_path.size() > e.size() &&
           name_or_path.compare(name_or_path.size() - e.size(), e.size(), e) == 0;
  };
  std::error_code ec;
  const bool looks_like_path = name_or_path.find('/') != std::string::npos || endsWith(".yaml") ||
                               endsWith(".yml") || endsWith(".json") ||
                               std::filesystem::exists(name_or_path, ec);
  const auto& schema_names = arch::dataflowNames();
  if (!looks_like_path &&
      std::find(schema_names.begin(), schema_names.end(), name_or_path) != schema_names.end()) {
    // Named by the accelerator schema (row-stationary, no-local-reuse) but not described yet.
    throw ConfigError({"", 0, 0, "--dataflow"},
                      "dataflow '" + name_or_path + "' has no description in configs/dataflows/ " +
                          "yet (shipped: " + joinNames(builtinDataflows()) +
                          "); pick one with --dataflow or give a YAML file");
  }
  if (!looks_like_path) {
    throw ConfigError({"", 0, 0, "--dataflow"}, "unknown dataflow '" + name_or_path +
                                                    "' (shipped: " + joinNames(builtinDataflows()) +
                                                    ", or a path to a YAML file)" +
                                                    didYouMean(name_or_path, builtinDataflows()));
  }
  // The file reader names directories, missing and unreadable files as such.
  const yaml::Document doc = yaml::Document::fromFile(name_or_path);
  return parseDataflow(doc, name_or_path);
}

}  // namespace tessel::dataflows

namespace tessel::dataflows {

namespace {

// Same loop-nest role for every dim and the same stationary operand: the same dataflow,
// whatever its name or file.
bool sameShape(const Dataflow& x, const Dataflow& y) {
  return x.stationary == y.stationary && x.row_dim == y.row_dim && x.col_dim == y.col_dim &&
         x.stream_dim == y.stream_dim;
}

std::string shapeText(const Dataflow& d) {
  return std::string(d.stationary == Operand::Weight  ? "weights"
                     : d.stationary == Operand::Input ? "inputs"
                                                      : "outputs") +
         " stationary, rows=" + std::string(nameOf(d.row_dim)) +
         " cols=" + std::string(nameOf(d.col_dim)) + " stream=" + std::string(nameOf(d.stream_dim));
}

}  // namespace

std::string whyNotRunnable(const Dataflow& df, const arch::Accelerator& acc) {
  const std::string kind(arch::nameOf(acc.array.kind));
  const std::string what = "dataflow '" + df.name + "' (" + df.source + ")";
  if (std::find(df.array_kinds.begin(), df.array_kinds.end(), kind) == df.array_kinds.end()) {
    return what + " runs on " + joinNames(df.array_kinds) + " arrays (its 'arrays:' list); accelerator '" +
           acc.name + "' has a " + kind + " array";
  }
  if (acc.array.kind != arch::ArrayKind::Systolic) {
    // The array's controller runs the dataflows its array.dataflows lists (a user's file runs
    // when it allows the same loop nest as one of them), and a PE keeps what its register file
    // can hold.
    bool listed = false;
    for (const std::string& name : acc.array.dataflows) {
      const auto shipped = builtinDataflows();
      if (std::find(shipped.begin(), shipped.end(), name) == shipped.end()) continue;
      const Dataflow d = loadDataflow(name);
      listed = listed || name == df.name ||
               (d.nest.rows == df.nest.rows && d.nest.cols == df.nest.cols &&
                d.nest.pe_keeps == df.nest.pe_keeps && d.nest.pe_loops == df.nest.pe_loops);
    }
    if (!listed) {
      return "accelerator '" + acc.name + "' does not run " + what + ": its array.dataflows lists " +
             joinNames(acc.array.dataflows) + ", and none allows the same loop nest";
    }
    static const char* const kTensor[] = {"inputs", "weights", "outputs"};
    const nest::Hardware hw = nest::hardwareOf(acc);
    for (size_t t = 0; t < 3; ++t) {
      if (df.nest.pe_keeps[t] && !hw.levels[size_t(hw.pe())].can_hold[t]) {
        return what + " keeps " + kTensor[t] + " in the PEs, but accelerator '" + acc.name +
               "' has no register file for them (array.register_file)";
      }
    }
    return "";
  }
  if (!df.gemm_view) {
    return what + " has no single stationary operand: a systolic array's PEs hold one value " +
           "each and pass the others on; accelerator '" + acc.name + "' has a systolic array";
  }
  std::string listed;
  for (const std::string& name : acc.array.dataflows) {
    const auto shipped = builtinDataflows();
    if (std::find(shipped.begin(), shipped.end(), name) == shipped.end()) continue;
    const Dataflow d = loadDataflow(name);
    if (!d.gemm_view) continue;
    if (sameShape(d, df)) return "";
    listed += (listed.empty() ? "" : "; ") + name + ": " + shapeText(d);
  }
  return "accelerator '" + acc.name + "' does not support " + what + ", " + shapeText(df) +
         "; its array.dataflows run " + (listed.empty() ? "none of the shipped dataflows" : listed);
}

void checkRunnable(const Dataflow& df, const arch::Accelerator& acc) {
  const std::string why = whyNotRunnable(df, acc);
  if (!why.empty()) throw ConfigError({"", 0, 0, "--dataflow"}, why);
}

}  // namespace tessel::dataflows
