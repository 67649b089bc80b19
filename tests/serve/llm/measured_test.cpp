// A measured run: reading its table (CSV and JSONL, the column names, milliseconds, rows in any
// order, every error where it was written), its stages, and the comparison against hand-made
// model records.
#include "serve/llm/measured.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/serve/llm/trace_files.h"

namespace tessel::serve::llm {
namespace {

using testing::BadTable;
using testing::expectErrors;
using testing::writeTemp;

TEST(LlmMeasuredRead, CsvKeepsTheRowsInFileOrderWithTheirStages) {
  const auto rows = readMeasured(writeTemp("run.csv",
                                           "arrival,prompt_tokens,output_tokens,ttft,e2e,stage\n"
                                           "2.0,100,10,0.2,1.1,low\n"
                                           "0.5,80,1,0.3,0.3,low\n"
                                           "1.0,60,5,0.1,0.9,high\n"));
  ASSERT_EQ(rows.size(), 3u);
  // File order, not arrival order: the first row arrives last.
  EXPECT_EQ(rows[0].request.arrival, 2.0);
  EXPECT_EQ(rows[0].request.prompt, 100);
  EXPECT_EQ(rows[0].request.output, 10);
  EXPECT_EQ(rows[0].ttft, 0.2);
  EXPECT_EQ(rows[0].e2e, 1.1);
  EXPECT_EQ(rows[0].stage, "low");
  EXPECT_EQ(rows[1].ttft, rows[1].e2e);  // one output token: the first is the last
  EXPECT_EQ(rows[2].stage, "high");
  EXPECT_EQ(rows[2].request.line, 4);  // each request keeps where it was written
}

TEST(LlmMeasuredRead, AliasesAndMillisecondColumns) {
  // ttft_ms and latency_ms are milliseconds; tpot_ms and note are ignored; no stage: "all".
  const auto rows =
      readMeasured(writeTemp("ms.csv",
                             "timestamp,prompt,completion_tokens,ttft_ms,tpot_ms,latency_ms,note\n"
                             "0,10,3,250,100,450,x\n"));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_DOUBLE_EQ(rows[0].ttft, 0.25);  // 250 ms
  EXPECT_DOUBLE_EQ(rows[0].e2e, 0.45);   // 450 ms
  EXPECT_EQ(rows[0].stage, "all");
  const auto seconds = readMeasured(writeTemp(
      "s.csv", "arrival_time,input_tokens,output,time_to_first_token,e2e_latency\n0,1,2,1,3\n"));
  EXPECT_EQ(seconds[0].ttft, 1);
  EXPECT_EQ(seconds[0].e2e, 3);
  const auto more = readMeasured(writeTemp("more.csv",
                                           "arrival,prompt,output,ttft_s,e2e_s\n0,1,2,1,3\n"
                                           "1,1,2,0.5,2\n"));
  EXPECT_EQ(more[1].e2e, 2);
  const auto ms =
      readMeasured(writeTemp("ms2.csv", "arrival,prompt,output,TTFT,E2E_MS\n0,1,2,1,3000\n"));
  EXPECT_EQ(ms[0].e2e, 3);  // names are case-insensitive, as a trace's
}

TEST(LlmMeasuredRead, Jsonl) {
  const auto rows = readMeasured(
      writeTemp("run.jsonl",
                "{\"arrival\":3,\"prompt\":4,\"output\":2,\"ttft\":0.5,\"latency\":0.8,"
                "\"stage\":2}\n"
                "{\"arrival\":1,\"prompt\":4,\"output\":2,\"ttft_ms\":100,\"e2e_ms\":300,"
                "\"stage\":\"warm\"}\n"));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].e2e, 0.8);
  EXPECT_EQ(rows[0].stage, "2");  // a number stage is its JSON text
  EXPECT_DOUBLE_EQ(rows[1].ttft, 0.1);
  EXPECT_DOUBLE_EQ(rows[1].e2e, 0.3);
  EXPECT_EQ(rows[1].stage, "warm");
}

TEST(LlmMeasuredRead, ReportsWhereAndWhy) {
  const std::string head = "arrival,prompt,output,ttft,e2e\n";
  // Columns of "0,1,2,T,E": arrival 1, prompt 3, output 5, ttft 7, e2e 9 (+ the length of T
  // beyond one character).
  const std::vector<BadTable> cases = {
      {"noe2e.csv", "arrival,prompt,output,ttft\n0,1,2,1\n",
       "noe2e.csv:1: at 'e2e': no e2e column (e2e, e2e_s, latency, e2e_latency, e2e_ms or "
       "latency_ms) in the header"},
      {"nottft.csv", "arrival,prompt,output,e2e\n0,1,2,1\n",
       "nottft.csv:1: at 'ttft': no ttft column (ttft, ttft_s, time_to_first_token or ttft_ms)"},
      // "arrival,prompt,output,ttft," is 27 characters: ttft_ms starts at 28.
      {"twice.csv", "arrival,prompt,output,ttft,ttft_ms,e2e\n0,1,2,1,1,2\n",
       "twice.csv:1:28: at 'ttft_ms': a second ttft column (after 'ttft')"},
      {"bad.csv", head + "0,1,2,0.1x,1\n", "bad.csv:2:7: at 'ttft': '0.1x' is not a number"},
      {"empty.csv", head + "0,1,2,,1\n", "empty.csv:2:7: at 'ttft': '' is not a number"},
      {"after.csv", head + "0,1,2,3,2\n",
       "after.csv:2:7: at 'ttft': a first token after the last: ttft 3 is more than e2e 2"},
      {"negative.csv", head + "0,1,2,-1,2\n", "negative.csv:2:7: at 'ttft': negative ttft -1"},
      {"zero.csv", head + "0,1,2,0,0\n", "zero.csv:2:9: at 'e2e': e2e 0: must be positive"},
      {"minus.csv", head + "0,1,2,0,-2\n", "minus.csv:2:9: at 'e2e': e2e -2: must be positive"},
      // The request columns are the trace reader's, with its messages.
      {"output.csv", head + "0,1,0,0.1,1\n",
       "output.csv:2:5: at 'output': output 0: a request has at least 1 token"},
      {"arrival.csv", head + "-1,1,2,0.1,1\n", "arrival.csv:2:1: at 'arrival': negative arrival"},
      {"stage.csv", "arrival,prompt,output,ttft,e2e,stage\n0,1,2,0.1,1,\n",
       "stage.csv:2:13: at 'stage': an empty stage"},
      // {"arrival":0,"prompt":1,"output":2, is 35 characters: "ttft" starts at 36.
      {"string.jsonl", "{\"arrival\":0,\"prompt\":1,\"output\":2,\"ttft\":\"1\",\"e2e\":2}\n",
       "string.jsonl:1:36: at 'ttft': is a string, expected a number"},
      {"nokey.jsonl", "{\"arrival\":0,\"prompt\":1,\"output\":2,\"ttft\":1}\n",
       "nokey.jsonl:1: at 'e2e': no e2e key (e2e, e2e_s"},
      {"both.jsonl",
       "{\"arrival\":0,\"prompt\":1,\"output\":2,\"ttft\":1,\"e2e\":2,\"latency\":2}\n",
       "at 'latency': both 'e2e' and 'latency' give the e2e"},
      {"mixed.jsonl",
       "{\"arrival\":0,\"prompt\":1,\"output\":2,\"ttft\":1,\"e2e\":2,\"stage\":\"a\"}\n"
       "{\"arrival\":1,\"prompt\":1,\"output\":2,\"ttft\":1,\"e2e\":2}\n",
       "mixed.jsonl:2: at 'stage': no stage, while line 1 has one"},
  };
  expectErrors(cases, [](const std::string& path) { readMeasured(path); });
}

// A measured request arriving at `arrival` with the given times.
MeasuredRequest row(double arrival, int64_t output, double ttft, double e2e,
                    const std::string& stage = "all") {
  MeasuredRequest m;
  m.request.arrival = arrival;
  m.request.prompt = 16;
  m.request.output = output;
  m.ttft = ttft;
  m.e2e = e2e;
  m.stage = stage;
  return m;
}

// The model's record of a request arriving at `arrival`: first token and finish after it.
RequestRecord record(double arrival, double ttft, double e2e) {
  RequestRecord r;
  r.arrival = arrival;
  r.first_token = arrival + ttft;
  r.finish = arrival + e2e;
  return r;
}

TEST(LlmMeasuredStages, GroupedInFileOrderEachSortedByArrival) {
  const std::vector<MeasuredRequest> rows = {row(5, 2, 0.1, 1, "b"), row(0, 2, 0.1, 1, "a"),
                                             row(1, 2, 0.1, 1, "b"), row(3, 2, 0.1, 1, "b")};
  const auto stages = stagesOf(rows);
  ASSERT_EQ(stages.size(), 2u);
  EXPECT_EQ(stages[0].name, "b");  // its first row comes first in the file
  EXPECT_EQ(stages[0].rows, (std::vector<size_t>{2, 3, 0}));  // arrivals 1, 3, 5
  EXPECT_EQ(stages[1].name, "a");
  const auto reqs = stageRequests(rows, stages[0]);
  ASSERT_EQ(reqs.size(), 3u);
  for (size_t i = 0; i < reqs.size(); ++i) EXPECT_EQ(reqs[i].id, static_cast<int64_t>(i));
  EXPECT_EQ(reqs[0].arrival, 1);
  EXPECT_EQ(reqs[2].arrival, 5);
}

TEST(LlmMeasuredCompare, E2eMeanAndPerRequestErrors) {
  // Measured E2E {1, 2, 3, 4}, modeled {1.1, 2.2, 2.7, 4.0}: both sum to 10, so the mean error
  // is (2.5 - 2.5) / 2.5 = 0; the per-request |errors| are {10%, 10%, 10%, 0%}, median (nearest
  // rank: the 2nd of 4 sorted, {0, .1, .1, .1}) 10%.
  std::vector<MeasuredRequest> rows;
  std::vector<RequestRecord> model;
  const double measured[] = {1, 2, 3, 4}, modeled[] = {1.1, 2.2, 2.7, 4.0};
  for (int i = 0; i < 4; ++i) {
    rows.push_back(row(i, 2, 0.5, measured[i]));
    model.push_back(record(i, 0.5, modeled[i]));
  }
  const auto stages = stagesOf(rows);
  ASSERT_EQ(stages.size(), 1u);
  const StageComparison s = compareStage(rows, stages[0], model);
  EXPECT_EQ(s.name, "all");
  EXPECT_EQ(s.requests, 4);
  EXPECT_NEAR(s.e2e.measured.mean, 2.5, 1e-12);
  EXPECT_NEAR(s.e2e.model.mean, 2.5, 1e-12);
  EXPECT_NEAR(s.e2e.error.mean, 0, 1e-12);
  ASSERT_EQ(s.e2e_request_errors.size(), 4u);
  EXPECT_NEAR(s.e2e_request_errors[0], 0.1, 1e-12);
  EXPECT_NEAR(s.e2e_request_errors[2], 0.1, 1e-12);  // |2.7 - 3| / 3
  EXPECT_NEAR(s.e2e_request_errors[3], 0, 1e-12);
  EXPECT_NEAR(s.e2e_request_error_median, 0.1, 1e-12);
  // p50 (nearest rank, the 2nd of 4): measured 2, modeled 2.2 -> +10%; p99 (the 4th): 4 and 4.
  EXPECT_NEAR(s.e2e.error.p50, 0.1, 1e-12);
  EXPECT_NEAR(s.e2e.error.p99, 0, 1e-12);
  // TTFT 0.5 on both sides: no error.
  EXPECT_NEAR(s.ttft.error.mean, 0, 1e-12);
  // Arrivals 0..3: 4 requests over a 3 s span.
  EXPECT_NEAR(s.rate, 4.0 / 3, 1e-12);
}

TEST(LlmMeasuredCompare, TpotIsDerivedAndSkipsSingleTokenRequests) {
  // Request 0: 5 output tokens, measured TTFT 0.5, E2E 2.5 -> TPOT (2.5 - 0.5) / 4 = 0.5;
  // modeled TTFT 0.4, E2E 2.0 -> (2.0 - 0.4) / 4 = 0.4, an error of (0.4 - 0.5) / 0.5 = -20%.
  // Request 1 has one output token: in TTFT and E2E, not in TPOT.
  const std::vector<MeasuredRequest> rows = {row(0, 5, 0.5, 2.5), row(1, 1, 0.2, 0.2)};
  const std::vector<RequestRecord> model = {record(0, 0.4, 2.0), record(1, 0.3, 0.3)};
  const StageComparison s = compareStage(rows, stagesOf(rows)[0], model);
  EXPECT_NEAR(s.tpot.measured.mean, 0.5, 1e-12);
  EXPECT_NEAR(s.tpot.model.mean, 0.4, 1e-12);
  EXPECT_NEAR(s.tpot.error.mean, -0.2, 1e-12);
  EXPECT_NEAR(s.tpot.measured.p99, 0.5, 1e-12);  // one TPOT value
  // TTFT means: measured (0.5 + 0.2) / 2 = 0.35, modeled (0.4 + 0.3) / 2 = 0.35.
  EXPECT_NEAR(s.ttft.error.mean, 0, 1e-12);
}

TEST(LlmMeasuredCompare, NoTpotAndOneArrivalAreUndefinedNotZero) {
  const std::vector<MeasuredRequest> rows = {row(2, 1, 0.2, 0.2)};
  const StageComparison s = compareStage(rows, stagesOf(rows)[0], {record(2, 0.3, 0.3)});
  EXPECT_TRUE(std::isnan(s.tpot.error.mean));  // no request of 2+ tokens
  EXPECT_TRUE(std::isnan(s.rate));             // a span of 0
  EXPECT_NEAR(s.e2e.error.mean, 0.5, 1e-12);   // (0.3 - 0.2) / 0.2
}

TEST(LlmMeasuredCompare, OverallTakesMediansOverRequestsAndOverStages) {
  // Stage a: E2E 1 -> 1.5 (+50%), 1 -> 1 (0%); stage b: 2 -> 1 (-50%), 2 -> 1.8 (-10%), 2 -> 2.
  const std::vector<MeasuredRequest> rows = {row(0, 2, 0, 1, "a"), row(1, 2, 0, 1, "a"),
                                             row(0, 2, 0, 2, "b"), row(1, 2, 0, 2, "b"),
                                             row(2, 2, 0, 2, "b")};
  const auto stages = stagesOf(rows);
  ASSERT_EQ(stages.size(), 2u);
  const std::vector<StageComparison> compared = {
      compareStage(rows, stages[0], {record(0, 0, 1.5), record(1, 0, 1)}),
      compareStage(rows, stages[1], {record(0, 0, 1), record(1, 0, 1.8), record(2, 0, 2)})};
  // Stage means: a (1.25 - 1) / 1 = +25%; b (4.8 / 3 - 2) / 2 = -20%.
  EXPECT_NEAR(compared[0].e2e.error.mean, 0.25, 1e-12);
  EXPECT_NEAR(compared[1].e2e.error.mean, -0.2, 1e-12);
  const OverallComparison o = overall(compared);
  EXPECT_EQ(o.requests, 5);
  // Per-request |errors| {0.5, 0, 0.5, 0.1, 0}: sorted {0, 0, 0.1, 0.5, 0.5}, the 3rd is 0.1.
  EXPECT_NEAR(o.e2e_request_error_median, 0.1, 1e-12);
  // |mean errors| {0.25, 0.2}: nearest rank p50 of 2 is the 1st sorted, 0.2.
  EXPECT_NEAR(o.e2e_mean_error_median, 0.2, 1e-12);
}

}  // namespace
}  // namespace tessel::serve::llm
