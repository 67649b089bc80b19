// Options several subcommands share: validators, the workload options, which ones were given.
#include "apps/tessel/cli_options.h"

#include <charconv>

namespace tessel::app::cli {

// A whole number that fits int64, as written: CLI11 alone would clamp 99999999999999999999.
const CLI::Validator kInt64(
    [](std::string& s) -> std::string {
      int64_t v = 0;
      const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      if (ec == std::errc() && end == s.data() + s.size()) return "";
      if (ec == std::errc::result_out_of_range) return "'" + s + "' is out of range";
      return "expected a whole number, got '" + s + "'";
    },
    "INT");

// A seed is 0 .. 2^64-1 written in decimal: CLI11 alone would wrap "-1" to 2^64-1.
const CLI::Validator kSeed(
    [](std::string& s) -> std::string {
      uint64_t v = 0;
      const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      if (ec == std::errc() && end == s.data() + s.size()) return "";
      return "expected a whole number from 0 to 18446744073709551615, got '" + s + "'";
    },
    "UINT64");

void addWorkloadOptions(CLI::App* cmd, WorkloadArgs& w, bool with_dtype, bool with_batch,
                        bool with_strict) {
  cmd->add_option("--seq", w.seq, "sequence length (prefill/encoder) or KV-cache length (decode)")
      ->check(kInt64)
      ->capture_default_str();
  if (with_batch)
    cmd->add_option("--batch", w.batch, "batch size")->check(kInt64)->capture_default_str();
  cmd->add_option("--phase", w.phase,
                  "decoders (gpt2, Hugging Face decoder configs and presets): prefill | decode")
      ->capture_default_str();
  cmd->add_option("--image", w.image, "resnet50 image height = width")
      ->check(kInt64)
      ->capture_default_str();
  if (with_dtype)
    cmd->add_option("--dtype", w.dtype, "tensor dtype (default: the array's input dtype)");
  cmd->add_flag("--all-logits", w.all_logits,
                "decoders (gpt2, Hugging Face decoders), prefill: LM head on every position");
  cmd->add_option("--layers", w.layers,
                  "transformers (gpt2, bert, Hugging Face decoder and encoder configs): run "
                  "blocks 0..N-1 only (0 = all)")
      ->check(kInt64)
      ->capture_default_str();
  cmd->add_option("--dim", w.dims, ".onnx: bind a symbolic dimension, NAME=VALUE (repeatable)");
  if (with_strict)  // xval's own --strict covers it there
    cmd->add_flag("--strict", w.strict, ".onnx: an op tessel has no model for is an error");
  cmd->add_option("--expert-load", w.expert_load,
                  "mixture-of-experts configs: share of routed tokens per expert, W,W,... "
                  "(default uniform)");
  cmd->add_option("--sparsity", w.sparsity,
                  "matmul/conv operands' sparsity: weights=2:4 (N:M along the reduction axis), "
                  "weights=0.5,inputs=0.4 (densities); default dense")
      ->each([&w](const std::string&) { w.sparsity_given = true; });
}

// The workload options the user gave on `cmd`, so that one a workload does not use is an error.
std::vector<std::string> givenOptions(CLI::App* cmd) {
  std::vector<std::string> given;
  for (const char* name :
       {"--seq", "--batch", "--phase", "--image", "--dtype", "--all-logits", "--layers", "--dim",
        "--strict", "--expert-load"}) {
    const CLI::Option* o = cmd->get_option_no_throw(name);
    if (o && o->count() > 0) given.emplace_back(name);
  }
  return given;
}

namespace {

// The option `name` of the innermost subcommand that ran (tessel arch check: check's).
const CLI::Option* ranOption(const CLI::App& app, const std::string& name) {
  const CLI::Option* found = app.get_option_no_throw(name);
  for (const CLI::App* sub : app.get_subcommands()) {
    if (const CLI::Option* o = ranOption(*sub, name)) found = o;
  }
  return found;
}

}  // namespace

ConfigError blameGiven(const CLI::App& app, const ConfigError& e) {
  const SourceLocation& at = e.where();
  if (!at.file.empty() || at.line > 0 || at.yaml_path.rfind("--", 0) != 0) return e;
  const CLI::Option* o = ranOption(app, at.yaml_path);
  if (o == nullptr || o->count() > 0) return e;
  const std::string value = o->get_default_str();
  SourceLocation where = at;
  where.yaml_path += value.empty() ? " (not given)" : " (not given; the default " + value + ")";
  return ConfigError(where, e.message());
}

void addFusion(CLI::App* cmd, std::string& fusion) {
  cmd->add_option("--fusion", fusion,
                  "none (nothing fused), epilogue (a GEMM with the ops draining from its tile), "
                  "auto (epilogues, plus attention, FFN and conv chains as one loop nest "
                  "wherever that costs less)")
      ->check(CLI::IsMember({"none", "epilogue", "auto"}))
      ->capture_default_str();
}

}  // namespace tessel::app::cli
