// SCALE-Sim .cfg files (v2 and v3) -> a tessel design YAML: `tessel arch import`.
//
// SCALE-Sim's INI sections and keys (configparser: "key = value" or "key: value", keys matched
// case-insensitively, '#' / ';' comment lines):
//   [general]              run_name -> name
//   [architecture_presets] ArrayHeight x ArrayWidth -> a systolic array (rows x cols);
//                          IfmapSramSzkB + FilterSramSzkB -> the scratchpad (inputs, weights),
//                          OfmapSramSzkB -> the accumulator (outputs), KiB of 1-byte words;
//                          Dataflow os|ws|is -> array.dataflows; Bandwidth (words/cycle) ->
//                          dram.bandwidth and dma.bus_width; offsets, banks and request buffers
//                          are read and ignored
//   [run_presets]          InterfaceBandwidth USER|CALC; UseRamulatorTrace (ignored)
//   [layout] [sparsity] [network_presets]  v3 / optional: checked, ignored
// Everything SCALE-Sim does not say (clock, node, DRAM latency and capacity, word size...) is an
// assumption, listed in the result and as comments at the top of the YAML.
#pragma once

#include <string>
#include <vector>

namespace tessel::arch {

struct ScalesimImport {
  std::string yaml;                      // a design `arch::loadString` accepts
  std::vector<std::string> assumptions;  // one sentence each
};

// Throws ConfigError at file:line:column (path "section.Key") for a missing or unreadable file,
// a line that is neither a section, a key/value pair nor a comment, an unknown section or key
// (with a suggestion), a repeated one, a missing required key, or a bad value.
ScalesimImport importScalesimConfig(const std::string& path);
// The same from text; `source` names it in errors and in the YAML (tests).
ScalesimImport convertScalesimConfig(const std::string& text, const std::string& source);

}  // namespace tessel::arch
