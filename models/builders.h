// Internal to models/: one builder per workload family, dispatched by models::build().
#pragma once

#include <cstdint>
#include <string>

#include "models/workload.h"

namespace tessel::models::detail {

struct Gpt2Config {
  std::string name;  // "gpt2-small"
  int64_t layers, d, heads;
};

struct BertConfig {
  std::string name;  // "bert-base"
  int64_t layers, d, heads, ffn;
};

// Options arrive checked for what all families share (batch, seq > 0, phase, image; decode only
// reaches gpt2); each builder checks its own limits (context length).
Graph buildGpt2(const Gpt2Config& config, const WorkloadOptions& options);
Graph buildBert(const BertConfig& config, const WorkloadOptions& options);
Graph buildResnet50(const WorkloadOptions& options);
// `params` is the text after "gemm:" / "conv:".
Graph buildGemm(const std::string& params, const WorkloadOptions& options);
Graph buildConv(const std::string& params, const WorkloadOptions& options);
Graph buildAttentionLayer(const std::string& params, const WorkloadOptions& options);
Graph buildFfnLayer(const std::string& params, const WorkloadOptions& options);

// Throws ConfigError at yaml_path `path` (e.g. "--seq", "workload"); no file.
[[noreturn]] void configError(const std::string& path, const std::string& message);

}  // namespace tessel::models::detail
