// Graphs of models/families (small Hugging Face configs) on the executor: FP32 against the double
// reference in prefill and decode, their INT8 plan, and mixtral's routing refused by name.
//
// Tolerance 1e-5 as for GPT-2 (test_reference.cpp): the same op mix at smaller widths (d = 64).
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/validation/validate.h"
#include "models/families/hf_config.h"
#include "ops_fixture.h"
#include "util/error.h"

namespace tessel::kernels {
namespace {

// A 1-layer config of `type`; `extra` adds fields ("\"head_dim\": 16, ...").
std::string config(const std::string& type, const std::string& extra = "") {
  return R"({"model_type": ")" + type + R"(", "hidden_size": 64, "num_attention_heads": 8,
    "num_key_value_heads": 2, "intermediate_size": 96, "num_hidden_layers": 1,
    "vocab_size": 128, "max_position_embeddings": 64, "rms_norm_eps": 1e-5)" +
         (extra.empty() ? "" : ", " + extra) + "}";
}

models::Graph family(const std::string& type, const std::string& phase,
                     const std::string& extra = "") {
  models::WorkloadOptions o;
  o.seq = 6;
  o.phase = phase;
  o.dtype = DType::FP32;
  return models::hf::buildFromText(config(type, extra), type + ".json", o);
}

class Families : public ::testing::TestWithParam<const char*> {};

TEST_P(Families, PrefillAndDecodeMatchDouble) {
  for (const char* phase : {"prefill", "decode"})
    testing::expectMatchesDouble(family(GetParam(), phase), 1e-5);
}

// INT8 on a whole 1-layer model (embedding to logits): finite everywhere, and the logits' error
// within 0.1 — the block's ~3% (test_llama_block.cpp) plus the final norm and LM head's roundings.
TEST_P(Families, Int8PlanRuns) {
  const models::Graph g = family(GetParam(), "prefill");
  const ReferenceRun ref = runReference(g, testing::opsStore());
  ExecutorOptions o;
  o.fuse = true;
  const ValidationReport r =
      validate(ref, lowerGraph(g, uniformPlan(DType::Int8)), testing::opsStore(), o);
  for (const OpReport& op : r.ops) {
    if (op.compared) {
      EXPECT_EQ(op.error.nonfinite, 0) << op.name;
    }
  }
  EXPECT_LE(r.output.error.rel_l2, 0.1);
  ::testing::Test::RecordProperty("logits_rel_l2", std::to_string(r.output.error.rel_l2));
}

INSTANTIATE_TEST_SUITE_P(Decoders, Families,
                         ::testing::Values("llama", "mistral", "qwen2", "gemma", "phi3"));

TEST(FamiliesRefused, MixtralRoutingIsNamed) {
  const models::Graph g =
      family("mixtral", "prefill", R"("num_local_experts": 4, "num_experts_per_tok": 2)");
  try {
    Executor exec(g, testing::opsStore());
    ADD_FAILURE() << "mixtral ran";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("(MoeRoute)"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tessel::kernels
