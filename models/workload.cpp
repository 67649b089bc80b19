// models::build: checks the options every family shares, then dispatches on the name.
#include "models/workload.h"

#include <algorithm>
#include <cctype>

#include "models/builders.h"
#include "models/families/hf_config.h"
#include "models/onnx/import.h"
#include "models/scalesim/topology.h"
#include "models/suggest.h"
#include "util/error.h"

namespace tessel::models {
namespace detail {

void configError(const std::string& path, const std::string& message) {
  SourceLocation where;
  where.yaml_path = path;
  throw ConfigError(where, message);
}

}  // namespace detail

namespace {

using detail::configError;

struct Family {
  const char* name;
  Graph (*build)(const WorkloadOptions&);
  bool decode;  // has a KV-cache decode phase
};

const detail::Gpt2Config kGpt2Small{"gpt2-small", 12, 768, 12};
const detail::Gpt2Config kGpt2Medium{"gpt2-medium", 24, 1024, 16};
const detail::Gpt2Config kGpt2Large{"gpt2-large", 36, 1280, 20};
const detail::Gpt2Config kGpt2Xl{"gpt2-xl", 48, 1600, 25};
const detail::BertConfig kBertBase{"bert-base", 12, 768, 12, 3072};
const detail::BertConfig kBertLarge{"bert-large", 24, 1024, 16, 4096};

Graph gpt2Small(const WorkloadOptions& o) { return detail::buildGpt2(kGpt2Small, o); }
Graph gpt2Medium(const WorkloadOptions& o) { return detail::buildGpt2(kGpt2Medium, o); }
Graph gpt2Large(const WorkloadOptions& o) { return detail::buildGpt2(kGpt2Large, o); }
Graph gpt2Xl(const WorkloadOptions& o) { return detail::buildGpt2(kGpt2Xl, o); }
Graph bertBase(const WorkloadOptions& o) { return detail::buildBert(kBertBase, o); }
Graph bertLarge(const WorkloadOptions& o) { return detail::buildBert(kBertLarge, o); }

// Aliases ("gpt2", "bert") build the same graph as the size they stand for.
const std::vector<Family>& families() {
  static const std::vector<Family> list = {
      {"gpt2", gpt2Small, true},
      {"gpt2-small", gpt2Small, true},
      {"gpt2-medium", gpt2Medium, true},
      {"gpt2-large", gpt2Large, true},
      {"gpt2-xl", gpt2Xl, true},
      {"bert", bertBase, false},
      {"bert-base", bertBase, false},
      {"bert-large", bertLarge, false},
      {"resnet50", detail::buildResnet50, false},
  };
  return list;
}

const char kGemmExample[] = "gemm:M=512,K=768,N=2304";
const char kConvExample[] = "conv:H=56,W=56,C=64,K=64,R=3,S=3,stride=1,pad=1";
const char kAttentionExample[] = "attention:S=8192,T=8192,H=32,KV=8,D=128,causal=1";
const char kFfnExample[] = "ffn:S=8192,D=4096,F=14336,gated=1";

bool isLayer(const std::string& key) {
  return key.rfind("gemm:", 0) == 0 || key.rfind("conv:", 0) == 0 ||
         key.rfind("attention:", 0) == 0 || key.rfind("ffn:", 0) == 0;
}

// Limits that keep every MAC count well inside int64.
constexpr int64_t kMaxBatch = int64_t{1} << 20;
constexpr int64_t kMaxImage = 8192;

void checkOptions(const WorkloadOptions& o) {
  auto n = [](int64_t v) { return std::to_string(v); };
  if (o.batch < 1) configError("--batch", "batch must be at least 1 (got " + n(o.batch) + ")");
  if (o.batch > kMaxBatch) configError("--batch", "batch must be at most " + n(kMaxBatch));
  // A serving step (new_tokens > 0) may start with an empty cache: a prompt's first chunk.
  if (o.seq < (o.new_tokens > 0 ? 0 : 1)) {
    configError("--seq", "seq must be at least 1 (got " + n(o.seq) + ")");
  }
  if (o.phase != "prefill" && o.phase != "decode") {
    std::string hint = detail::closest(o.phase, {"prefill", "decode"});
    configError("--phase",
                "unknown phase '" + o.phase + "'; " +
                    (hint.empty() ? "expected prefill or decode" : "did you mean '" + hint + "'?"));
  }
  if (o.image < 32) {
    configError("--image", "image must be at least 32 pixels (got " + n(o.image) +
                               "): ResNet-50 downsamples by 32");
  }
  if (o.image > kMaxImage) configError("--image", "image must be at most " + n(kMaxImage));
  if (o.layers < 0) configError("--layers", "layers must be at least 0 (got " + n(o.layers) + ")");
}

// Only the transformer families have a block count to cut; elsewhere it would be ignored.
void rejectLayers(const std::string& name, const WorkloadOptions& o) {
  if (o.layers != 0) {
    configError("--layers", "workload '" + name +
                                "' has no transformer blocks to cut (--layers applies to gpt2 "
                                "and bert; shrink resnet50 with --image)");
  }
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

[[noreturn]] void unknownWorkload(const std::string& name) {
  std::vector<std::string> names;
  for (const Family& f : families()) names.push_back(f.name);
  names.push_back("gemm:");
  names.push_back("conv:");
  names.push_back("attention:");
  names.push_back("ffn:");
  std::string hint = detail::closest(name, names);
  if (hint == "gemm:") hint = kGemmExample;
  if (hint == "conv:") hint = kConvExample;
  if (hint == "attention:") hint = kAttentionExample;
  if (hint == "ffn:") hint = kFfnExample;
  std::string known;
  for (const std::string& k : workloadNames()) known += (known.empty() ? "" : ", ") + k;
  configError("workload",
              "unknown workload '" + name + "'; " +
                  (hint.empty() ? "known workloads: " + known : "did you mean '" + hint + "'?"));
}

// --all-logits only changes GPT-2 prefill (decode has one position; the others have no LM head).
void rejectAllLogits(const std::string& name, const WorkloadOptions& o, bool gpt2) {
  if (!o.all_logits) return;
  if (!gpt2) {
    configError("--all-logits", "workload '" + name +
                                    "' has no language-model head (--all-logits applies to "
                                    "gpt2 prefill)");
  }
  if (o.phase == "decode") {
    configError("--all-logits",
                "decode computes the logits of its one new position; --all-logits applies to "
                "prefill");
  }
}

// The options each kind of workload reads; a given option outside its list would be ignored.
void rejectUnusedOptions(const std::string& name, const WorkloadOptions& o,
                         const std::vector<std::string>& used, const std::string& hint) {
  for (const std::string& option : o.given) {
    if (std::find(used.begin(), used.end(), option) != used.end()) continue;
    configError(option, "workload '" + name + "' does not use " + option + " (" + hint + ")");
  }
}

void rejectDecode(const std::string& name, const WorkloadOptions& o) {
  if (o.phase == "decode") {
    configError("--phase", "workload '" + name + "' has no decode phase (only gpt2 models do)");
  }
}

}  // namespace

namespace {

bool endsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Options only imported (ONNX) or mixture-of-experts models read.
void rejectModelFileOptions(const std::string& name, const WorkloadOptions& o, bool onnx,
                            bool config) {
  if (!onnx && !o.dims.empty()) {
    configError("--dim", "workload '" + name +
                             "' has no symbolic dimensions to bind (--dim applies to .onnx files)");
  }
  if (!onnx && o.strict) {
    configError("--strict", "workload '" + name +
                                "' is not imported (--strict applies to .onnx files)");
  }
  if (!config && !o.expert_load.empty()) {
    configError("--expert-load", "workload '" + name +
                                     "' has no experts (--expert-load applies to mixture-of-"
                                     "experts configs such as mixtral)");
  }
}

}  // namespace

namespace {

Graph buildGraph(const std::string& name, const WorkloadOptions& options) {
  checkOptions(options);
  if (options.tensor_parallel != 1 || options.expert_parallel != 1) {
    DecoderFacts facts;
    if (!decoderFacts(name, facts)) {
      configError(options.tensor_parallel != 1 ? "--tp" : "--ep",
                  "parallel splits are modeled for Hugging Face decoders (llama, mistral, mixtral, "
                  "qwen2, ...); '" + name + "' is not one");
    }
  }
  const std::string key = lower(name);
  if (endsWith(key, ".onnx")) {
    rejectModelFileOptions(name, options, true, false);
    rejectUnusedOptions(name, options, optionsOf(name),
                        "an ONNX model takes --batch, --dim, --strict and --dtype; its shapes are "
                        "its own, and --dim NAME=VALUE binds a symbolic dimension such as a "
                        "sequence length");
    return onnx::importFile(name, options);
  }
  if (endsWith(key, ".json")) {
    rejectModelFileOptions(name, options, false, true);
    return hf::buildFromFile(name, options);
  }
  if (endsWith(key, ".csv")) {  // a SCALE-Sim topology (models/scalesim/topology.h)
    rejectModelFileOptions(name, options, false, false);
    rejectDecode(name, options);
    rejectLayers(name, options);
    rejectAllLogits(name, options, false);
    rejectUnusedOptions(name, options, optionsOf(name),
                        "a SCALE-Sim topology takes --batch and --dtype; its shapes are its own");
    return scalesim::importTopology(name, options);
  }
  if (hf::isPreset(key)) {
    rejectModelFileOptions(name, options, false, true);
    return hf::buildPreset(key, options);
  }
  rejectModelFileOptions(name, options, false, false);
  if (isLayer(key)) {
    rejectDecode(name, options);
    rejectLayers(name, options);
    rejectAllLogits(name, options, false);
    rejectUnusedOptions(name, options, optionsOf(name),
                        "a single layer takes its shape from its parameters; --batch sets B/N");
    const std::string params = name.substr(name.find(':') + 1);
    if (key[0] == 'a') return detail::buildAttentionLayer(params, options);
    if (key[0] == 'f') return detail::buildFfnLayer(params, options);
    return key[0] == 'g' ? detail::buildGemm(params, options) : detail::buildConv(params, options);
  }
  for (const Family& f : families()) {
    if (key != f.name) continue;
    if (!f.decode) rejectDecode(name, options);
    if (f.build == detail::buildResnet50) rejectLayers(name, options);
    rejectAllLogits(name, options, f.decode);  // the families with a decode phase are GPT-2's
    rejectUnusedOptions(name, options, optionsOf(name),
                        f.build == detail::buildResnet50 ? "resnet50 takes --image, --batch and --dtype"
                        : f.decode ? "gpt2 takes --seq, --batch, --phase, --layers, --all-logits "
                                     "and --dtype"
                                   : "bert takes --seq, --batch, --layers and --dtype");
    return f.build(options);
  }
  unknownWorkload(name);
}

}  // namespace

Graph build(const std::string& name, const WorkloadOptions& options) {
  Graph g = buildGraph(name, options);
  if (!options.sparsity.dense()) applySparsity(g, options.sparsity);
  return g;
}

std::vector<std::string> optionsOf(const std::string& name) {
  const std::string key = lower(name);
  if (endsWith(key, ".onnx")) return {"--batch", "--dtype", "--dim", "--strict"};
  if (endsWith(key, ".csv")) return {"--batch", "--dtype"};
  if (endsWith(key, ".json") || hf::isPreset(key)) return hf::optionsOfConfig();
  if (isLayer(key)) return {"--batch", "--dtype"};
  for (const Family& f : families()) {
    if (key != f.name) continue;
    if (f.build == detail::buildResnet50) return {"--batch", "--dtype", "--image"};
    std::vector<std::string> used = {"--batch", "--dtype", "--seq", "--layers"};
    if (f.decode) used.insert(used.end(), {"--phase", "--all-logits"});
    return used;
  }
  return {};
}

std::vector<std::string> workloadNames() {
  std::vector<std::string> names;
  for (const Family& f : families()) names.push_back(f.name);
  for (const std::string& preset : hf::presetNames()) names.push_back(preset);
  names.push_back(kGemmExample);
  names.push_back(kConvExample);
  names.push_back(kAttentionExample);
  names.push_back(kFfnExample);
  return names;
}

}  // namespace tessel::models

namespace tessel::models {

bool decoderFacts(const std::string& name, DecoderFacts& facts) {
  const std::string key = lower(name);
  if (endsWith(key, ".json")) return hf::decoderFactsOf(name, facts);
  if (hf::isPreset(key)) return hf::decoderFactsOf(key, facts);
  return false;
}

}  // namespace tessel::models
