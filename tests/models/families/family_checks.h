// Helpers of the Hugging Face family tests: options, preset text edits, op lookups.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "models/families/presets.h"
#include "models/graph.h"
#include "models/workload.h"

namespace tessel::models {

inline WorkloadOptions opts(int64_t seq, int64_t batch = 1, const std::string& phase = "prefill") {
  WorkloadOptions o;
  o.seq = seq;
  o.batch = batch;
  o.phase = phase;
  return o;
}

// The shipped config.json text of a preset.
inline std::string presetText(const std::string& name) {
  for (const hf::Preset& p : hf::presets()) {
    if (name == p.name) return p.json;
  }
  ADD_FAILURE() << "no preset " << name;
  return "";
}

// `text` with the first `from` replaced by `to` (the edit must apply).
inline std::string edited(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

inline const Op& opNamed(const Graph& g, const std::string& name) {
  const int id = g.findOp(name);
  EXPECT_GE(id, 0) << name;
  return g.op(id < 0 ? 0 : id);
}

}  // namespace tessel::models
