// tessel serve on a decoder LLM, end to end: the closed forms the JSON must satisfy against
// `tessel run` of the same steps, the grid's records, and the bad scenarios that exit 2.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/cli_runner.h"
#include "tests/reports/schema_doc.h"

namespace tessel {
namespace {

using testing::runTessel;
using testing::slurp;

std::string temp(const std::string& name) {
  return ::testing::TempDir() + "serve_llm_" + std::to_string(getpid()) + "_" + name;
}

const std::string kArch = std::string(TESSEL_SOURCE_DIR) + "/configs/arch/";
const std::string kTiny = std::string(TESSEL_SOURCE_DIR) + "/tests/serve/llm/data/tiny-llama.json";
// The one-core design the closed forms compare on, and the budget serve maps with by default.
const std::string kOn = "--arch " + kArch + "gemmini-default.yaml --workload " + kTiny;

nlohmann::json serve(const std::string& args, const std::string& name) {
  const std::string json = temp(name + ".json");
  const auto r = runTessel("serve " + args + " --json " + json);
  EXPECT_EQ(r.code, 0) << r.out;
  return nlohmann::json::parse(slurp(json));
}

double runSeconds(const std::string& args) {
  const std::string json = temp("run.json");
  const auto r = runTessel("run " + kOn + " --budget 1000 " + args + " -q --json " + json);
  EXPECT_EQ(r.code, 0) << r.out;
  return nlohmann::json::parse(slurp(json))["totals"]["seconds"].get<double>();
}

std::string trace(const std::string& name, const std::string& text) {
  const std::string path = temp(name);
  std::ofstream(path) << text;
  return path;
}

TEST(ServeLlmCli, OneRequestAloneHasThePrefillAsTtftAndTheDecodeStepsAsTpot) {
  // --exact and --kv-block 1: every step simulated at its own shape.
  const auto doc = serve(kOn + " --rate 1 --requests 1 --prompt-len 100 --output-len 6 "
                                   "--exact --kv-block 1",
                         "alone");
  const auto& p = doc["points"][0];
  ASSERT_EQ(p["status"], "ok");
  EXPECT_EQ(p["completed"], 1);
  // TTFT: the prefill of 100 tokens (its keys read from the cache it writes: within 1%).
  const double prefill = runSeconds("--seq 100");
  EXPECT_NEAR(p["ttft_s"]["p50"].get<double>(), prefill, 0.01 * prefill);
  // TPOT: 5 decode steps after 100, 101, ..., 104 cached tokens, each `tessel run --phase
  // decode --seq L` exactly.
  double decode = 0;
  for (int kv = 100; kv < 105; ++kv) {
    decode += runSeconds("--phase decode --seq " + std::to_string(kv));
  }
  EXPECT_NEAR(p["tpot_s"]["p50"].get<double>(), decode / 5, 1e-9 * decode);
  EXPECT_NEAR(p["e2e_s"]["p50"].get<double>() - p["ttft_s"]["p50"].get<double>(), decode,
              1e-9 * decode);
}

TEST(ServeLlmCli, OnSeveralCoresTheStepsAreTheFusedDevicesRuns) {
  // npu-3core serves on its three cores fused: `tessel run --cores fused` times the same device.
  const std::string npu = "--arch " + kArch + "npu-3core.yaml --workload " + kTiny;
  const auto doc = serve(npu + " --rate 1 --requests 1 --prompt-len 80 --output-len 3 --exact "
                               "--kv-block 1",
                         "fused");
  const auto& p = doc["points"][0];
  auto fused = [&](const std::string& args) {
    const std::string json = temp("fused.json");
    const auto r = runTessel("run " + npu + " --cores fused --budget 1000 " + args +
                             " -q --json " + json);
    EXPECT_EQ(r.code, 0) << r.out;
    return nlohmann::json::parse(slurp(json))["totals"]["seconds"].get<double>();
  };
  const double prefill = fused("--seq 80");
  EXPECT_NEAR(p["ttft_s"]["p50"].get<double>(), prefill, 0.01 * prefill);
  const double decode = fused("--phase decode --seq 80") + fused("--phase decode --seq 81");
  EXPECT_NEAR(p["e2e_s"]["p50"].get<double>() - p["ttft_s"]["p50"].get<double>(), decode,
              1e-9 * decode);
  EXPECT_EQ(doc["alone"]["prompt_tokens"], 80);
}

TEST(ServeLlmCli, EqualRequestsArrivingTogetherCostWhatTheBatchedRunDoes) {
  const std::string t = trace("four.csv",
                              "arrival,prompt_tokens,output_tokens\n"
                              "0,64,4\n0,64,4\n0,64,4\n0,64,4\n");
  const auto doc = serve(kOn + " --arrivals " + t + " --exact --kv-block 1", "four");
  const auto& p = doc["points"][0];
  ASSERT_EQ(p["status"], "ok");
  // Three decode iterations of the four together, after 64, 65, 66 cached tokens.
  double decode = 0;
  for (int kv = 64; kv < 67; ++kv) {
    decode += runSeconds("--phase decode --batch 4 --seq " + std::to_string(kv));
  }
  EXPECT_NEAR(p["tpot_s"]["max"].get<double>(), decode / 3, 1e-9 * decode);
  EXPECT_NEAR(p["tpot_s"]["p50"].get<double>(), p["tpot_s"]["max"].get<double>(), 1e-15);
  EXPECT_EQ(p["iterations"], 4);  // one prefill iteration of the four prompts, three decodes
}

TEST(ServeLlmCli, AStreamSatisfiesLittlesLawAndGoodputStaysBelowThroughput) {
  const auto doc = serve(kOn + " --rate 20,40 --requests 300 --prompt-len uniform:32:256 "
                                   "--output-len lognormal:32:0.5 --slo ttft=0.05,tpot=0.005 "
                                   "--max-batch 8,64",
                         "stream");
  ASSERT_EQ(doc["points"].size(), 4u);
  for (const auto& p : doc["points"]) {
    ASSERT_EQ(p["status"], "ok");
    EXPECT_EQ(p["completed"], 300);
    const double rate = p["requests_per_s"], e2e = p["e2e_s"]["mean"];
    EXPECT_NEAR(p["mean_in_system"].get<double>(), rate * e2e, 0.01 * rate * e2e);
    EXPECT_LE(p["goodput_requests_per_s"].get<double>(), rate + 1e-12);
    EXPECT_LE(p["utilization"].get<double>(), 1 + 1e-9);
    EXPECT_GE(p["ttft_s"]["p99"].get<double>(), p["ttft_s"]["p50"].get<double>());
  }
  EXPECT_GT(doc["shapes_evaluated"].get<int>(), 0);
  EXPECT_FALSE(doc["recommendations"].empty());
}

TEST(ServeLlmCli, DisaggregatedRunsPrefillAndDecodeOnSeparateCores) {
  const auto doc = serve("--arch " + kArch + "npu-3core.yaml --workload " + kTiny +
                             " --rate 50 --requests 100 --prompt-len 128 --output-len 16 "
                             "--cores fused,disaggregated",
                         "disagg");
  EXPECT_EQ(doc["split"], "1 prefill + 2 decode cores");
  ASSERT_EQ(doc["points"].size(), 2u);
  EXPECT_EQ(doc["points"][0]["cores"], "fused");
  EXPECT_EQ(doc["points"][1]["cores"], "disaggregated");
  for (const auto& p : doc["points"]) {
    ASSERT_EQ(p["status"], "ok");
    EXPECT_EQ(p["completed"], 100);
    for (const auto& r : p["timeline"]) {
      EXPECT_LE(r["arrival"].get<double>(), r["first_token"].get<double>());
      EXPECT_LT(r["first_token"].get<double>(), r["finish"].get<double>());
    }
  }
}

TEST(ServeLlmCli, AKvCacheTooSmallForARequestMakesThePointInfeasibleNotTheRun) {
  const auto doc = serve(kOn + " --rate 5 --requests 10 --prompt-len 512 --output-len 64 "
                                   "--kv-budget '64 KiB'",
                         "small");
  const auto& p = doc["points"][0];
  EXPECT_EQ(p["status"], "infeasible");
  EXPECT_NE(p["reason"].get<std::string>().find("KV blocks"), std::string::npos) << p["reason"];
}

TEST(ServeLlmCli, ATraceWithPrefixesPrintsThePromptTokensReused) {
  // Two 96-token prompts sharing their first 64 tokens (4 blocks of 16): the second reuses
  // them, 64 of the 192 prompt tokens. With host overhead, the options line shows it.
  const std::string t = trace("prefix.csv",
                              "arrival,prompt_tokens,output_tokens,prefix_id,prefix_tokens\n"
                              "0,96,2,system,64\n1,96,2,system,64\n");
  const auto r = runTessel("serve " + kOn + " --arrivals " + t + " --step-overhead 3ms");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("prefix cache: prompt tokens reused 64 of 192 (33.3%)"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("step_overhead=3ms sequence_overhead=0s"), std::string::npos) << r.out;
  const auto off = runTessel("serve " + kOn + " --arrivals " + t + " --prefix-caching off");
  EXPECT_EQ(off.code, 0) << off.out;
  EXPECT_NE(off.out.find("reused 0 of 192 (0.0%)"), std::string::npos) << off.out;
}

TEST(ServeLlmCli, BadScenariosExitTwoWithTheReason) {
  const std::string unsorted =
      trace("unsorted.csv", "arrival,prompt_tokens,output_tokens\n0,10,5\n2,10,5\n1,10,5\n");
  const std::string columns = trace("columns.csv", "arrival,prompt,tokens_out\n0,10,5\n");
  const struct {
    std::string args, expect;
  } cases[] = {
      {"--rate 1 --prompt-len 0", "--prompt-len"},
      {"--rate 1 --prompt-len -5", "--prompt-len"},
      {"--rate 1 --output-len uniform:9:2", "--output-len"},
      {"--rate 1 --prompt-len 4000 --output-len 200", "context"},
      {"--arrivals " + unsorted, "sorted"},
      {"--arrivals " + columns, "output"},
      {"--rate 1 --slo ttft=1,latency=2", "latency"},
      {"--rate 1 --batch 4", "--max-batch"},
      {"--rate 1 --chunk 4096 --max-tokens 2048", "--max-tokens"},
      {"--requests 5", "--rate"},
      {"--rate 1 --cores disaggregated", "several cores"},
      {"--rate 1 --cores split", "--cores"},
      {"--rate 1 --kv-budget '1 TiB'", "--kv-budget"},
      {"--rate 1 --seq 128", "--seq"},
      {"--rate 1 --workers 4", "--workers"},
      {"--rate 1 --step-overhead -1ms", "--step-overhead"},
      {"--rate 1 --sequence-overhead 2min", "--sequence-overhead"},
  };
  for (const auto& c : cases) {
    // Lengths that fit the tiny model's context, unless the case sets its own.
    const bool lengths = c.args.find("-len") != std::string::npos ||
                         c.args.find("--arrivals") != std::string::npos;
    const std::string fit = lengths ? "" : " --prompt-len 256 --output-len 32";
    const auto r = runTessel("serve " + kOn + fit + " " + c.args);
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.expect), std::string::npos) << c.args << "\n" << r.out;
  }
}

// A measured run of three stages: "low" (written out of arrival order; its 48-token request has
// one output token), "high", and "long", whose 1,000-token prompts need 63 KV blocks of 16
// tokens where --kv-budget 256 KiB holds floor(262144 / (384 B per token x 16)) = 42.
const std::string kMeasured =
    "arrival,prompt_tokens,output_tokens,ttft_ms,e2e_ms,stage\n"
    "1.0,32,4,20,60,low\n"
    "0.0,64,8,30,120,low\n"
    "0.5,48,1,25,25,low\n"
    "0.0,64,8,40,200,high\n"
    "0.1,64,8,60,260,high\n"
    "0.2,32,4,50,150,high\n"
    "2.0,1000,8,500,900,long\n"
    "2.5,900,8,450,850,long\n";
const std::string kBudget = " --kv-budget '256 KiB'";

struct Compared {
  std::string out;
  nlohmann::json doc;
};

Compared compareMeasured() {
  const std::string json = temp("measured.json");
  const auto r = runTessel("serve " + kOn + kBudget + " --compare-measured " +
                           trace("measured.csv", kMeasured) + " --json " + json);
  EXPECT_EQ(r.code, 0) << r.out;
  return {r.out, nlohmann::json::parse(slurp(json))};
}

TEST(ServeLlmCli, CompareMeasuredServesEachStageFromEmptyAndScoresIt) {
  const Compared c = compareMeasured();
  // Stages in the order of their first row; rates are requests / arrival span: 3 over 1 s,
  // 3 over 0.2 s, 2 over 0.5 s.
  EXPECT_NE(c.out.find("stage low: 3 requests at 3.00/s; median per-request"), std::string::npos)
      << c.out;
  EXPECT_NE(c.out.find("stage high: 3 requests at 15.00/s"), std::string::npos);
  EXPECT_NE(c.out.find("stage long: 2 requests at 4.00/s; infeasible: "), std::string::npos);
  EXPECT_NE(c.out.find("overall: 6 requests in 2 stages; median per-request |E2E error|"),
            std::string::npos);
  const auto& cm = c.doc["compare_measured"];
  ASSERT_EQ(cm["stages"].size(), 3u);
  const auto& low = cm["stages"][0];
  EXPECT_EQ(low["name"], "low");
  EXPECT_EQ(low["requests"], 3);
  EXPECT_NEAR(low["rate"].get<double>(), 3.0, 1e-12);
  EXPECT_NEAR(cm["stages"][1]["rate"].get<double>(), 15.0, 1e-9);
  EXPECT_EQ(cm["stages"][2]["status"], "infeasible");
  // Measured TTFT mean (20 + 30 + 25) / 3 = 25 ms; E2E p99, the largest of 3, 120 ms; TPOT over
  // the two requests of 2+ tokens: (120 - 30) / 7 and (60 - 20) / 3 ms, mean 13.095 ms.
  EXPECT_NEAR(low["ttft"]["measured"]["mean"].get<double>(), 0.025, 1e-12);
  EXPECT_NEAR(low["e2e"]["measured"]["p99"].get<double>(), 0.120, 1e-12);
  EXPECT_EQ(low["tpot_requests"], 2);
  EXPECT_NEAR(low["tpot"]["measured"]["mean"].get<double>(), (0.09 / 7 + 0.04 / 3) / 2, 1e-12);
  // Each stage is its own run from an empty service, arrivals as written: the same numbers as
  // serving that stage's requests alone as a trace, and the JSON's point i is stage i's run.
  const std::string trace_low = trace("low.csv",
                                      "arrival,prompt_tokens,output_tokens\n"
                                      "0.0,64,8\n0.5,48,1\n1.0,32,4\n");
  const std::string trace_high = trace("high.csv",
                                       "arrival,prompt_tokens,output_tokens\n"
                                       "0.0,64,8\n0.1,64,8\n0.2,32,4\n");
  const std::string trace_files[] = {trace_low, trace_high};
  for (size_t i = 0; i < 2; ++i) {
    const auto alone =
        serve(kOn + kBudget + " --arrivals " + trace_files[i], "stage" + std::to_string(i));
    const auto& stage = cm["stages"][i];
    for (const char* latency : {"ttft", "tpot", "e2e"}) {
      const double model = stage[latency]["model"]["mean"];
      EXPECT_NEAR(model, alone["points"][0][std::string(latency) + "_s"]["mean"].get<double>(),
                  1e-12 * model)
          << i << " " << latency;
      EXPECT_NEAR(model, c.doc["points"][i][std::string(latency) + "_s"]["mean"].get<double>(),
                  1e-12 * model);
      // The error is (model - measured) / measured.
      const double measured = stage[latency]["measured"]["mean"];
      EXPECT_NEAR(stage[latency]["error"]["mean"].get<double>(), (model - measured) / measured,
                  1e-12);
    }
  }
  EXPECT_EQ(c.doc["points"][2]["status"], "infeasible");
  // Overall: the stages that ran; the median of two stage errors is the smaller (nearest rank).
  EXPECT_EQ(cm["overall"]["requests"], 6);
  EXPECT_EQ(cm["overall"]["stages"], 2);
  const double e0 = std::fabs(cm["stages"][0]["e2e"]["error"]["mean"].get<double>());
  const double e1 = std::fabs(cm["stages"][1]["e2e"]["error"]["mean"].get<double>());
  EXPECT_NEAR(cm["overall"]["e2e_mean_error_median"].get<double>(), std::min(e0, e1), 1e-12);
}

TEST(ServeLlmCli, CompareMeasuredJsonIsWhatSchemaDocuments) {
  const auto documented = reports::schemaPaths("## LLM serve comparison (`compare_measured`)");
  ASSERT_GT(documented.size(), 15u);
  std::set<std::string> actual;
  reports::jsonPaths(compareMeasured().doc["compare_measured"], "compare_measured", actual);
  auto covered = [&](const std::string& path) {
    for (const std::string& p : documented) {
      if (reports::matchesPattern(p, path, '.')) return true;
    }
    return false;
  };
  for (const std::string& a : actual) EXPECT_TRUE(covered(a)) << "not documented: " << a;
  for (const std::string& p : documented) {
    bool found = false;
    for (const std::string& a : actual) found = found || reports::matchesPattern(p, a, '.');
    EXPECT_TRUE(found) << "documented but not written: " << p;
  }
}

TEST(ServeLlmCli, CompareMeasuredBadScenariosExitTwo) {
  const std::string measured = trace("m.csv", kMeasured);
  const std::string no_e2e =
      trace("no_e2e.csv", "arrival,prompt_tokens,output_tokens,ttft\n0,64,8,0.03\n");
  const std::string other = trace("other.csv", "arrival,prompt_tokens,output_tokens\n0,64,8\n");
  const struct {
    std::string args, expect;
  } cases[] = {
      {"--compare-measured " + no_e2e, "no_e2e.csv:1: at 'e2e': no e2e column (e2e, e2e_s"},
      {"--compare-measured " + measured + " --rate 1", "--rate is set by the measured run"},
      {"--compare-measured " + measured + " --arrivals " + other,
       "--compare-measured replays its own requests; leave --arrivals out"},
      {"--compare-measured " + measured + " --max-batch 8,16", "one configuration"},
      {"--phase decode --compare-measured " + measured,
       "--compare-measured applies to an LLM service"},
  };
  for (const auto& c : cases) {
    const auto r = runTessel("serve " + kOn + " " + c.args);
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.expect), std::string::npos) << c.args << "\n" << r.out;
  }
}

}  // namespace
}  // namespace tessel
