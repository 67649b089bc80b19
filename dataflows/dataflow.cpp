#include "dataflows/dataflow.h"

#include <algorithm>
#include <filesystem>

#include "arch/schema.h"
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

Dataflow parseDataflow(const yaml::Document& doc, const std::string& source_name) {
  yaml::MapReader top(doc.root());
  Dataflow df;
  df.source = source_name;
  df.name = top.required<std::string>("name", "the dataflow's short name (ws, os, ...)");
  df.description = top.optional<std::string>("description", "", "one line for reports");
  df.stationary = parseOperand(top.require("stationary", "operand held in the PEs"));
  yaml::MapReader spatial(top.require("spatial", "GEMM dims unrolled over the array"));
  const yaml::Node rows = spatial.require("rows", "GEMM dim across array rows");
  const yaml::Node cols = spatial.require("cols", "GEMM dim across array columns");
  df.row_dim = parseDim(rows);
  df.col_dim = parseDim(cols);
  spatial.finish();
  const yaml::Node stream = top.require("stream", "GEMM dim that flows through time");
  df.stream_dim = parseDim(stream);
  const yaml::Node arrays = top.require("arrays", "array kinds that can run it");
  df.array_kinds = arrays.as<std::vector<std::string>>();
  checkArrays(arrays);
  if (df.array_kinds.empty()) arrays.fail("must name at least one array kind (systolic, spatial)");
  top.finish();
  if (df.row_dim == df.col_dim || df.row_dim == df.stream_dim || df.col_dim == df.stream_dim) {
    stream.fail("spatial.rows, spatial.cols and stream must be three different dims");
  }
  if (Problem::dependsOn(df.stationary, df.stream_dim)) {
    top.require("stationary", "")
        .fail("the stationary operand must not depend on the stream dim '" +
              std::string(nameOf(df.stream_dim)) + "'");
  }
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

void checkRunnable(const Dataflow& df, const arch::Accelerator& acc) {
  const SourceLocation where{"", 0, 0, "--dataflow"};
  const std::string kind(arch::nameOf(acc.array.kind));
  const std::string what = "dataflow '" + df.name + "' (" + df.source + ")";
  if (std::find(df.array_kinds.begin(), df.array_kinds.end(), kind) == df.array_kinds.end()) {
    throw ConfigError(where, what + " runs on " + joinNames(df.array_kinds) +
                                 " arrays (its 'arrays:' list); accelerator '" + acc.name +
                                 "' has a " + kind + " array");
  }
  if (acc.array.kind != arch::ArrayKind::Systolic) return;  // spatial arrays run all five
  std::string listed;
  for (const std::string& name : acc.array.dataflows) {
    const auto shipped = builtinDataflows();
    if (std::find(shipped.begin(), shipped.end(), name) == shipped.end()) continue;
    const Dataflow d = loadDataflow(name);
    if (sameShape(d, df)) return;
    listed += (listed.empty() ? "" : "; ") + name + ": " + shapeText(d);
  }
  throw ConfigError(where, "accelerator '" + acc.name + "' does not support " + what + ", " +
                               shapeText(df) + "; its array.dataflows run " +
                               (listed.empty() ? "none of the shipped dataflows" : listed));
}

}  // namespace tessel::dataflows
