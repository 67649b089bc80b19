// The LLM request stream: command-line forms, the statistics of synthetic streams, traces,
// the context check and SLOs.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "serve/llm/requests.h"
#include "tests/serve/llm/trace_files.h"
#include "tests/util/error_of.h"

namespace tessel::serve::llm {
namespace {

using tessel::testing::errorOf;
using testing::BadTable;
using testing::expectErrors;
using testing::writeTemp;

struct Moments {
  double mean = 0, cv = 0;
};
Moments moments(const std::vector<double>& xs) {
  double sum = 0, sq = 0;
  for (double x : xs) sum += x;
  const double mean = sum / static_cast<double>(xs.size());
  for (double x : xs) sq += (x - mean) * (x - mean);
  return {mean, std::sqrt(sq / static_cast<double>(xs.size() - 1)) / mean};
}

std::vector<double> gaps(const std::vector<Request>& reqs) {
  std::vector<double> out;
  for (size_t i = 1; i < reqs.size(); ++i) out.push_back(reqs[i].arrival - reqs[i - 1].arrival);
  return out;
}

StreamSpec spec(const std::string& arrivals, double rate, int64_t n) {
  StreamSpec s;
  s.arrivals = parseArrivals(arrivals);
  s.rate = rate;
  s.requests = n;
  s.prompt = parseLengthDist("512", "--prompt-len");
  s.output = parseLengthDist("128", "--output-len");
  return s;
}

TEST(LlmRequestsLengthDist, ParsesEveryForm) {
  const auto fixed = parseLengthDist("512", "--prompt-len");
  EXPECT_EQ(fixed.kind, LengthDist::Kind::Fixed);
  EXPECT_EQ(fixed.a, 512);
  EXPECT_EQ(fixed.text, "512");
  const auto uniform = parseLengthDist("uniform:128:1024", "--prompt-len");
  EXPECT_EQ(uniform.kind, LengthDist::Kind::Uniform);
  EXPECT_EQ(uniform.a, 128);
  EXPECT_EQ(uniform.b, 1024);
  const auto one = parseLengthDist("uniform:7:7", "--prompt-len");  // a one-value range is fine
  EXPECT_EQ(one.b, 7);
  const auto logn = parseLengthDist("lognormal:512:0.5", "--output-len");
  EXPECT_EQ(logn.kind, LengthDist::Kind::Lognormal);
  EXPECT_EQ(logn.a, 512);
  EXPECT_EQ(logn.b, 0.5);
}

TEST(LlmRequestsLengthDist, RejectsBadForms) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "empty"},
      {"normal:5:1", "unknown distribution 'normal'"},
      {"abc", "not a number of tokens"},
      {"512abc", "not a number of tokens"},
      {"0", "at least 1 token"},
      {"-3", "at least 1 token"},
      {"12.5", "not a whole number"},
      {"2e9", "more than 1e9"},
      {"uniform:0:10", "at least 1 token"},
      {"uniform:10:5", "below the low end"},
      {"uniform:1.5:3", "not a whole number"},
      {"uniform:1:x", "'x' is not a number"},
      {"uniform:1:2x", "'2x' is not a number"},
      {"uniform:1:2:3", "takes 2 numbers, got 3"},
      {"uniform:1", "takes 2 numbers, got 1"},
      {"lognormal:0:1", "mean must be positive"},
      {"lognormal:10:-1", "must be >= 0"},
      {"lognormal:10:nan", "is not a number"},
  };
  for (const auto& [text, reason] : cases) {
    const std::string what = errorOf([&] { parseLengthDist(text, "--prompt-len"); });
    EXPECT_NE(what.find("--prompt-len"), std::string::npos) << text << ": " << what;
    EXPECT_NE(what.find(reason), std::string::npos) << text << ": " << what;
  }
}

TEST(LlmRequestsArrivals, ParsesEveryForm) {
  EXPECT_EQ(parseArrivals("poisson").kind, ArrivalSpec::Kind::Poisson);
  EXPECT_EQ(parseArrivals("uniform").kind, ArrivalSpec::Kind::Uniform);
  const auto gamma = parseArrivals("gamma:2.5");
  EXPECT_EQ(gamma.kind, ArrivalSpec::Kind::Gamma);
  EXPECT_EQ(gamma.cv, 2.5);
  const std::string path = writeTemp("arrivals.csv", "arrival,prompt,output\n0,1,1\n");
  const auto trace = parseArrivals(path);
  EXPECT_EQ(trace.kind, ArrivalSpec::Kind::Trace);
  EXPECT_EQ(trace.path, path);
}

TEST(LlmRequestsArrivals, RejectsBadForms) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "empty"},
      {"gamma", "expected gamma:CV"},
      {"gamma:x", "expected gamma:CV"},
      {"gamma:0", "must be positive"},
      {"gamma:-1", "must be positive"},
      {"no_such_trace.csv", "not one of poisson, uniform or gamma:CV, and there is no such"},
      {"Poisson", "no such trace file"},
      {"possion", "; did you mean 'poisson'?"},
      {::testing::TempDir(), "is a directory"},
  };
  for (const auto& [text, reason] : cases) {
    const std::string what = errorOf([&] { parseArrivals(text); });
    if (text != ::testing::TempDir()) {  // a directory is reported by its path
      EXPECT_NE(what.find("--arrivals"), std::string::npos) << text << ": " << what;
    }
    EXPECT_NE(what.find(reason), std::string::npos) << text << ": " << what;
  }
}

// Exponential gaps: mean 1/rate and CV 1. 20,000 draws give a standard error of 0.7 % on the
// mean and about 1 % on the CV, so 3 % is three standard errors.
TEST(LlmRequestsGenerate, PoissonGapsHaveMeanOneOverRateAndCvOne) {
  const auto reqs = generate(spec("poisson", 50, 20001));
  ASSERT_EQ(reqs.size(), 20001u);
  EXPECT_EQ(reqs[0].arrival, 0);
  const auto m = moments(gaps(reqs));
  EXPECT_NEAR(m.mean, 1.0 / 50, 0.03 / 50);
  EXPECT_NEAR(m.cv, 1, 0.03);
  for (size_t i = 0; i < reqs.size(); ++i) EXPECT_EQ(reqs[i].id, static_cast<int64_t>(i));
}

// Gamma with CV 2 (shape 1/4, the shape < 1 boost): heavy-tailed, so 100,000 draws keep the
// standard error of the sample CV near 1.5 %; 5 % is over three.
TEST(LlmRequestsGenerate, GammaGapsHaveTheRequestedCv) {
  const auto m = moments(gaps(generate(spec("gamma:2", 10, 100001))));
  EXPECT_NEAR(m.mean, 0.1, 0.1 * 0.03);
  EXPECT_NEAR(m.cv, 2, 2 * 0.05);
  const auto smooth = moments(gaps(generate(spec("gamma:0.5", 10, 20001))));  // shape 4
  EXPECT_NEAR(smooth.cv, 0.5, 0.5 * 0.03);
}

TEST(LlmRequestsGenerate, UniformGapsAreExactlyOneOverRate) {
  const auto reqs = generate(spec("uniform", 8, 1000));  // 1/8 s is exact in binary
  for (size_t i = 1; i < reqs.size(); ++i) EXPECT_EQ(reqs[i].arrival - reqs[i - 1].arrival, 0.125);
  const auto thirds = generate(spec("uniform", 3, 1000));
  for (size_t i = 1; i < thirds.size(); ++i) {
    EXPECT_NEAR(thirds[i].arrival - thirds[i - 1].arrival, 1.0 / 3, 1e-12);
  }
}

// lognormal:512:0.5: 50,000 draws, standard errors 0.2 % on the mean and about 0.7 % on the CV.
// Rounding to whole tokens moves the mean by well under 0.1 %.
TEST(LlmRequestsGenerate, LognormalLengthsHaveTheRequestedMeanAndCv) {
  auto s = spec("poisson", 1, 50000);
  s.output = parseLengthDist("lognormal:512:0.5", "--output-len");
  std::vector<double> lengths;
  for (const Request& r : generate(s)) lengths.push_back(static_cast<double>(r.output));
  const auto m = moments(lengths);
  EXPECT_NEAR(m.mean, 512, 512 * 0.03);
  EXPECT_NEAR(m.cv, 0.5, 0.5 * 0.03);
  s.output = parseLengthDist("lognormal:99.6:0", "--output-len");  // CV 0: fixed at round(mean)
  for (const Request& r : generate(s)) ASSERT_EQ(r.output, 100);
  s.output = parseLengthDist("lognormal:1:3", "--output-len");  // most draws round to 0
  for (const Request& r : generate(s)) ASSERT_GE(r.output, 1);
}

// uniform:128:1024 has 897 values, mean 576; 20,000 draws hit each end with probability
// 1 - (896/897)^20000 > 1 - 1e-9, and the mean's standard error is 0.9 tokens (0.16 %).
TEST(LlmRequestsGenerate, UniformLengthsCoverBothEnds) {
  auto s = spec("poisson", 1, 20000);
  s.prompt = parseLengthDist("uniform:128:1024", "--prompt-len");
  std::vector<double> lengths;
  int64_t lo = 1 << 30, hi = 0;
  for (const Request& r : generate(s)) {
    lengths.push_back(static_cast<double>(r.prompt));
    lo = std::min(lo, r.prompt);
    hi = std::max(hi, r.prompt);
  }
  EXPECT_EQ(lo, 128);
  EXPECT_EQ(hi, 1024);
  EXPECT_NEAR(moments(lengths).mean, 576, 576 * 0.02);
}

TEST(LlmRequestsGenerate, TheSeedAloneDecides) {
  auto s = spec("gamma:1.5", 20, 500);
  s.prompt = parseLengthDist("uniform:1:4096", "--prompt-len");
  s.output = parseLengthDist("lognormal:200:1", "--output-len");
  const auto same = [](const std::vector<Request>& a, const std::vector<Request>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i].arrival != b[i].arrival || a[i].prompt != b[i].prompt ||
          a[i].output != b[i].output || a[i].id != b[i].id) {
        return false;
      }
    }
    return true;
  };
  const auto first = generate(s);
  EXPECT_TRUE(same(first, generate(s)));
  s.seed = 2;
  const auto other = generate(s);
  EXPECT_FALSE(same(first, other));

  // A different output distribution leaves arrivals and prompts as they were.
  s.output = parseLengthDist("uniform:1:10", "--output-len");
  const auto reshaped = generate(s);
  bool outputs_differ = false;
  for (size_t i = 0; i < other.size(); ++i) {
    ASSERT_EQ(reshaped[i].arrival, other[i].arrival);
    ASSERT_EQ(reshaped[i].prompt, other[i].prompt);
    outputs_differ |= reshaped[i].output != other[i].output;
  }
  EXPECT_TRUE(outputs_differ);
}

TEST(LlmRequestsGenerate, RejectsBadRateAndCount) {
  EXPECT_NE(errorOf([] { generate(spec("poisson", 0, 10)); }).find("--rate"), std::string::npos);
  EXPECT_NE(errorOf([] { generate(spec("uniform", -1, 10)); }).find("positive"), std::string::npos);
  EXPECT_NE(errorOf([] { generate(spec("poisson", 1, 0)); }).find("--requests"), std::string::npos);
  EXPECT_NE(errorOf([] { generate(spec("poisson", 1, 100'000'001)); }).find("100,000,000"),
            std::string::npos);
}

TEST(LlmRequestsTrace, CsvRoundTrips) {
  const std::string path = writeTemp("round.csv",
                                     "user, output_tokens ,Timestamp,prompt_tokens\n"
                                     "alice,10,0,100\n"
                                     "\n"
                                     "\"bob, jr\",20,0.5,200\n"
                                     "carol,30,0.5,300\n");
  const auto reqs = readTrace(path);
  ASSERT_EQ(reqs.size(), 3u);
  EXPECT_EQ(reqs[1].id, 1);
  EXPECT_EQ(reqs[1].arrival, 0.5);
  EXPECT_EQ(reqs[1].prompt, 200);
  EXPECT_EQ(reqs[1].output, 20);
  EXPECT_EQ(reqs[2].prompt, 300);

  // Through generate: the trace, or its first `requests` when they are given.
  StreamSpec s;
  s.arrivals = parseArrivals(path);
  s.requests = 2;
  EXPECT_EQ(generate(s).size(), 3u);  // not given: the default count does not apply
  s.requests_given = true;
  EXPECT_EQ(generate(s).size(), 2u);
  s.requests = 10;
  EXPECT_EQ(generate(s).size(), 3u);
}

TEST(LlmRequestsTrace, CsvToleratesCrlfAndTrailingCommas) {
  const auto reqs = readTrace(writeTemp(
      "crlf.csv", "arrival_time,input_tokens,completion_tokens,\r\n1.5,7,8,\r\n2,9,10\r\n"));
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[0].arrival, 1.5);
  EXPECT_EQ(reqs[0].prompt, 7);
  EXPECT_EQ(reqs[1].output, 10);
}

TEST(LlmRequestsTrace, JsonlRoundTrips) {
  const std::string path =
      writeTemp("round.jsonl",
                "{\"arrival\": 0, \"prompt\": 5, \"output\": 6, \"model\": \"x\"}\n"
                "\n"
                "{\"output_tokens\": 8, \"prompt_tokens\": 7, \"arrival\": 0.25}\r\n");
  const auto reqs = readTrace(path);
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[0].prompt, 5);
  EXPECT_EQ(reqs[0].output, 6);
  EXPECT_EQ(reqs[1].arrival, 0.25);
  EXPECT_EQ(reqs[1].prompt, 7);
  // Detected by its first character too.
  const auto renamed =
      readTrace(writeTemp("round.txt", "  {\"timestamp\":3,\"prompt\":1,\"output\":2}"));
  ASSERT_EQ(renamed.size(), 1u);
  EXPECT_EQ(renamed[0].arrival, 3);
}

TEST(LlmRequestsTrace, ReportsWhereAndWhy) {
  const std::string head = "arrival,prompt_tokens,output_tokens\n";
  const std::vector<BadTable> cases = {
      {"unsorted.csv", head + "0,1,1\n2.0,1,1\n\n1.5,1,1\n",
       "unsorted.csv:5:1: at 'arrival': arrival 1.5 s is before the previous line's 2 s (line 3)"},
      {"missing.csv", "arrival,prompt_tokens\n0,1\n",
       "missing.csv:1: at 'output_tokens': no output_tokens column (output_tokens, output or "
       "completion_tokens)"},
      {"bad.csv", head + "0,12x,1\n", "bad.csv:2:3: at 'prompt_tokens': '12x' is not a number"},
      {"negative.csv", head + "-1,1,1\n", "negative.csv:2:1: at 'arrival': negative arrival"},
      {"zero.csv", head + "0,0,1\n", "at 'prompt_tokens': prompt_tokens 0: a request has at"},
      {"half.csv", head + "0,1,2.5\n", "half.csv:2:5: at 'output_tokens': output_tokens 2.5 is"},
      {"short.csv", head + "0,1\n", "short.csv:2: 2 fields, but the header has 3"},
      {"twice.csv", "arrival,prompt,output,prompt_tokens\n", "a second prompt_tokens column"},
      {"quote.csv", head + "\"0,1,1\n", "quote.csv:2:1: a quote is not closed"},
      {"empty.csv", "\n \n", "the trace is empty"},
      {"header.csv", head, "the trace has no requests"},
      {"empty.jsonl", "", "the trace has no requests"},
      {"nokey.jsonl", "{\"arrival\":0,\"prompt\":1}\n", "nokey.jsonl:1: at 'output_tokens': no"},
      {"string.jsonl", "{\"arrival\":0,\"prompt\":\"12\",\"output\":1}\n",
       "string.jsonl:1:14: at 'prompt': is a string, expected a number"},
      {"broken.jsonl", "{\"arrival\":0,\n", "broken.jsonl:1:14: not valid JSON"},
      {"overflow.jsonl", "{\"arrival\":1e999,\"prompt\":1,\"output\":1}\n",
       "overflow.jsonl:1: not valid JSON: number overflow parsing '1e999'"},
      {"array.jsonl", "[1,2,3]\n", "expected a JSON object"},
      {"unsorted.jsonl",
       "{\"arrival\":2,\"prompt\":1,\"output\":1}\n"
       "{\"arrival\":1,\"prompt\":1,\"output\":1}\n",
       "unsorted.jsonl:2:2: at 'arrival': arrival 1 s is before the previous line's 2 s"},
  };
  expectErrors(cases, [](const std::string& path) { readTrace(path); });
  EXPECT_NE(errorOf([] { readTrace("/no/such/trace.csv"); }).find("no such file"),
            std::string::npos);
}

TEST(LlmRequestsCheckContext, NamesTheFirstRequestThatDoesNotFit) {
  std::vector<Request> reqs(20);
  for (size_t i = 0; i < reqs.size(); ++i) {
    reqs[i] = {static_cast<int64_t>(i), 0, 1000, 1000};
  }
  reqs[12].prompt = 3000;
  reqs[12].output = 2000;
  reqs[15].prompt = 4000;
  EXPECT_NO_THROW(checkContext(reqs, 0, "m", ""));  // no limit known
  reqs[15].prompt = 1000;
  EXPECT_NO_THROW(checkContext(reqs, 5000, "m", "--prompt-len"));  // 5000 fits exactly
  reqs[15].prompt = 4000;
  EXPECT_EQ(errorOf([&] { checkContext(reqs, 4096, "llama-3.2-1b", "--prompt-len"); }),
            "--prompt-len: request 12: prompt 3000 + output 2000 tokens exceeds llama-3.2-1b's "
            "context of 4096 (2 of 20 requests do); shorten --prompt-len or --output-len");
  const std::string what = errorOf([&] { checkContext(reqs, 4096, "m", "trace.csv"); });
  EXPECT_EQ(what.rfind("trace.csv: request 12: prompt 3000", 0), 0u) << what;
}

// A check made after reading (the model's context) still cites the trace's file:line:column.
TEST(LlmRequestsCheckContext, ATraceRequestKeepsItsLocation) {
  const std::string path = writeTemp(
      "context.csv", "arrival,prompt_tokens,output_tokens\n0,10,10\n\n1,  3000,2000\n");
  const auto reqs = readTrace(path);
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[1].line, 4);
  EXPECT_EQ(reqs[1].column, 3);
  const std::string what = errorOf([&] { checkContext(reqs, 4096, "m", path); });
  EXPECT_EQ(what.rfind(path + ":4:3: at 'prompt_tokens': request 1: prompt 3000", 0), 0u) << what;
  const std::string jsonl = writeTemp(
      "context.jsonl", "{\"arrival\": 0, \"prompt_tokens\": 5000, \"output_tokens\": 1}\n");
  const std::string j = errorOf([&] { checkContext(readTrace(jsonl), 4096, "m", jsonl); });
  EXPECT_EQ(j.rfind(jsonl + ":1:16: at 'prompt_tokens'", 0), 0u) << j;
}

TEST(LlmRequestsSlo, ParsesTimesWithUnits) {
  const Slo slo = parseSlo("ttft=0.5,tpot=50 ms");
  EXPECT_EQ(slo.ttft, 0.5);
  EXPECT_DOUBLE_EQ(slo.tpot, 0.05);
  EXPECT_EQ(slo.e2e, 0);
  EXPECT_TRUE(slo.any());
  EXPECT_DOUBLE_EQ(parseSlo("ttft=500ms").ttft, 0.5);
  EXPECT_EQ(parseSlo(" e2e = 2s ").e2e, 2);
  EXPECT_DOUBLE_EQ(parseSlo("tpot=100us").tpot, 1e-4);
  EXPECT_FALSE(Slo{}.any());
}

TEST(LlmRequestsSlo, RejectsBadForms) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "empty"},
      {"ttft=1,", "empty item"},
      {"ttft", "is not KEY=TIME"},
      {"ttfb=1", "unknown objective 'ttfb'; did you mean 'ttft'?; known: ttft, tpot, e2e"},
      {"ttft=1,ttft=2", "ttft is given twice"},
      {"ttft=0", "must be positive"},
      {"ttft=-1ms", "must be positive"},
      {"ttft=", "ttft has no value"},
      {"ttft=fast", "is not a time"},
      {"ttft=5min", "unknown unit 'min'; accepted: s, ms, us"},
  };
  for (const auto& [text, reason] : cases) {
    const std::string what = errorOf([&] { parseSlo(text); });
    EXPECT_NE(what.find("--slo"), std::string::npos) << text << ": " << what;
    EXPECT_NE(what.find(reason), std::string::npos) << text << ": " << what;
  }
}

TEST(LlmRequestsOverhead, TakesTimesAsSloDoesAndRefusesNegativeOnes) {
  EXPECT_DOUBLE_EQ(parseOverhead("3ms", "--step-overhead"), 3e-3);
  EXPECT_DOUBLE_EQ(parseOverhead("25us", "--step-overhead"), 25e-6);
  EXPECT_EQ(parseOverhead("0.5", "--step-overhead"), 0.5);
  EXPECT_EQ(parseOverhead("0", "--sequence-overhead"), 0);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"-1ms", "'-1ms': a host overhead must be 0 or more"},
      {"fast", "'fast' is not a time"},
      {"5min", "'5min': unknown unit 'min'; accepted: s, ms, us"},
      {"", "empty"},
  };
  for (const auto& [text, reason] : cases) {
    const std::string what = errorOf([&] { parseOverhead(text, "--step-overhead"); });
    EXPECT_NE(what.find("--step-overhead"), std::string::npos) << text << ": " << what;
    EXPECT_NE(what.find(reason), std::string::npos) << text << ": " << what;
  }
}

}  // namespace
}  // namespace tessel::serve::llm
