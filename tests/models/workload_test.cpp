// models::build dispatch: names, aliases, suggestions and option errors.
#include <gtest/gtest.h>

#include "error_checks.h"
#include "graph_checks.h"

namespace tessel::models {
namespace {

WorkloadOptions small() {
  WorkloadOptions o;
  o.seq = 16;
  return o;
}

TEST(ModelsWorkload, EveryListedNameBuilds) {
  std::vector<std::string> names = workloadNames();
  EXPECT_GE(names.size(), 11u);
  for (const std::string& n : names) {
    Graph g = build(n, small());
    EXPECT_FALSE(g.ops().empty()) << n;
    expectWellFormed(g);
  }
}

TEST(ModelsWorkload, AliasesAndCase) {
  EXPECT_EQ(build("gpt2", small()).name, "gpt2-small prefill seq=16 batch=1");
  EXPECT_EQ(build("GPT2-Medium", small()).name, "gpt2-medium prefill seq=16 batch=1");
  EXPECT_EQ(build("bert", small()).name, "bert-base seq=16 batch=1");
  EXPECT_EQ(build("bert", small()).totalMacs(), build("bert-base", small()).totalMacs());
}

TEST(ModelsWorkload, UnknownNamesSuggest) {
  std::string msg = expectConfigError("gtp2", small(), "workload", "");
  EXPECT_EQ(msg, "unknown workload 'gtp2'; did you mean 'gpt2'?");
  expectConfigError("gpt2-smal", small(), "workload", "did you mean 'gpt2-small'?");
  expectConfigError("resnet-50", small(), "workload", "did you mean 'resnet50'?");
  expectConfigError("bert-larg", small(), "workload", "did you mean 'bert-large'?");
  expectConfigError("gemm", small(), "workload", "did you mean 'gemm:M=512,K=768,N=2304'?");
  msg = expectConfigError("alexnet", small(), "workload", "known workloads: gpt2, gpt2-small");
  EXPECT_EQ(msg.find("did you mean"), std::string::npos);
  expectConfigError("", small(), "workload", "unknown workload ''");
}

TEST(ModelsWorkload, OptionErrors) {
  WorkloadOptions o = small();
  o.seq = 0;
  expectConfigError("gpt2", o, "--seq", "seq must be at least 1 (got 0)");
  o.seq = 1025;  // one past the 1024-token context
  expectConfigError("gpt2", o, "--seq", "exceeds gpt2's context of 1024");
  o.seq = 1024;
  EXPECT_NO_THROW(build("gpt2", o));
  o.phase = "decode";  // a 1024-token cache plus the new token needs 1025 positions
  expectConfigError("gpt2", o, "--seq", "at most 1023");
  o.seq = 1023;
  EXPECT_NO_THROW(build("gpt2", o));
  o = small();
  o.seq = 513;
  expectConfigError("bert-base", o, "--seq", "exceeds bert's 512 position");
  o.seq = 512;
  EXPECT_NO_THROW(build("bert-base", o));
  o = small();
  o.phase = "decoder";
  expectConfigError("gpt2", o, "--phase", "unknown phase 'decoder'; did you mean 'decode'?");
  o.phase = "train";
  expectConfigError("gpt2", o, "--phase", "expected prefill or decode");
  o.phase = "decode";
  for (const char* n : {"bert", "bert-large", "resnet50", "gemm:M=1,K=1,N=1"}) {
    expectConfigError(n, o, "--phase", "has no decode phase");
  }
  o = small();
  o.batch = 0;
  expectConfigError("resnet50", o, "--batch", "batch must be at least 1 (got 0)");
  o.batch = -2;
  expectConfigError("gpt2", o, "--batch", "at least 1");
  o = small();
  o.image = 31;
  expectConfigError("resnet50", o, "--image", "at least 32");
}

TEST(WorkloadOptionsTest, APaddingNear2To63DoesNotWrap) {
  // in + 2 x pad would wrap int64 and give a tiny (or negative) output size: it must instead be
  // the huge size it is, and refused as too large.
  expectConfigError("conv:H=56,W=56,C=64,K=64,R=3,S=3,stride=1,pad=9223372036854775807", small(),
                    "workload", "too large");
  // A large stride brings a large padding back to a countable output.
  EXPECT_NO_THROW(build("conv:H=56,W=56,C=8,K=8,R=3,S=3,stride=4611686018427387904,"
                        "pad=4611686018427387904",
                        small()));
}

TEST(WorkloadOptionsTest, AllLogitsOnlyWhereThereIsAPrefillLmHead) {
  WorkloadOptions o = small();
  o.all_logits = true;
  EXPECT_NO_THROW(build("gpt2", o));
  for (const char* n : {"bert", "resnet50", "gemm:M=1,K=1,N=1"}) {
    expectConfigError(n, o, "--all-logits", "has no language-model head");
  }
  o.phase = "decode";
  expectConfigError("gpt2", o, "--all-logits", "applies to prefill");
}

}  // namespace
}  // namespace tessel::models
