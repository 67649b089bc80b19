// The terminal table: expected lines for the sample run (see sample_run.h for the numbers).
#include "reports/table.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "sample_run.h"

namespace tessel::reports {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Lines with runs of spaces collapsed, so tests do not depend on column widths.
std::vector<std::string> squeezedLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::string out;
    for (char ch : line) {
      if (ch != ' ' || (!out.empty() && out.back() != ' ')) out += ch;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    lines.push_back(out);
  }
  return lines;
}

// Index of the squeezed line equal to `line`, or -1.
int lineIndex(const std::string& text, const std::string& line) {
  const auto lines = squeezedLines(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i] == line) return static_cast<int>(i);
  }
  return -1;
}

bool hasLine(const std::string& text, const std::string& line) {
  return lineIndex(text, line) >= 0;
}

TEST(ReportsTable, HeaderAndTotals) {
  const std::string t = tableString(sample::sampleRun());
  EXPECT_THAT(t, HasSubstr("tessel 0.1.0 | arch tiny-gemmini (01234567) | workload gpt2-tiny | "
                           "engine analytical\n"));
  EXPECT_TRUE(hasLine(t, "options: seq=8 batch=1 phase=prefill"));
  EXPECT_TRUE(hasLine(t, "clock 1.00 GHz | 16 PEs"));
  EXPECT_TRUE(hasLine(t, "cycles 2,000"));
  EXPECT_TRUE(hasLine(t, "time 2.00 us"));  // 2000 / 1e9 s
  EXPECT_TRUE(hasLine(t, "MACs 19,200"));
  EXPECT_TRUE(hasLine(t, "utilization 60.00 %"));  // 19200 / (2000 * 16)
  EXPECT_TRUE(hasLine(t, "DRAM bytes 6.77 KiB (6,932 B)"));
  EXPECT_TRUE(hasLine(t, "energy 3.05 nJ (dynamic 3.05 nJ, clocked 0.00 pJ, static 0.00 pJ)"));  // 3050.5 pJ
  // 3050.5 pJ / 2 us; without the DRAM's 2000 pJ, 1050.5 pJ.
  EXPECT_TRUE(hasLine(t, "power 0.00153 W (accelerator chip 0.000525 W, without DRAM and host)"));
  EXPECT_TRUE(hasLine(t, "energy per MAC 0.159 pJ"));   // 3050.5 / 19,200
  // 2 x 19,200 ops / 3050.5 pJ = 12.6 TOPS/W; 2 x 19,200 / 2 us = 0.0192 TOPS of 2 x 16 x 1 GHz.
  EXPECT_TRUE(hasLine(t, "TOPS/W 12.6 (0.0192 TOPS of 0.0320 peak)"));
  EXPECT_TRUE(hasLine(t, "area 0.750 mm2"));
  EXPECT_TRUE(hasLine(t, "TOPS/mm2 0.0256"));  // 0.0192 / 0.75
}

// The sample run's qkv has 2:4 weights run compressed (9,600 of its 19,200 MACs performed, none
// gated), so the rows add the share of MACs done and gated; classes without MACs show dashes.
TEST(ReportsTable, ByClassShowsNonzeroClassesInOrder) {
  const std::string t = tableString(sample::sampleRun());
  EXPECT_TRUE(hasLine(t, "By op class cycles % ops MACs done gated"));
  EXPECT_TRUE(hasLine(t, "MatMul 1,500 75.00 1 50.00 0.00"));  // 1500 / 2000; 9,600 / 19,200
  EXPECT_TRUE(hasLine(t, "Softmax 300 15.00 1 - -"));          // 300 / 2000
  EXPECT_TRUE(hasLine(t, "Other 200 10.00 1 - -"));            // 200 / 2000
  EXPECT_TRUE(hasLine(t, "total 2,000 100.00 4 50.00 0.00"));
  EXPECT_THAT(t, Not(HasSubstr("GELU")));  // fused: no cycles of its own
  // OpClass order: MatMul, ..., Softmax, ..., Other.
  EXPECT_LT(lineIndex(t, "MatMul 1,500 75.00 1 50.00 0.00"), lineIndex(t, "Softmax 300 15.00 1 - -"));
  EXPECT_LT(lineIndex(t, "Softmax 300 15.00 1 - -"), lineIndex(t, "Other 200 10.00 1 - -"));
}

// A dense run's rows keep their four columns.
TEST(ReportsTable, ByClassOfADenseRunHasNoSparseColumns) {
  sim::RunStats run = sample::sampleRun();
  for (sim::OpStats& op : run.ops) op.sparsity = {};
  const std::string t = tableString(run);
  EXPECT_TRUE(hasLine(t, "By op class cycles % ops"));
  EXPECT_TRUE(hasLine(t, "MatMul 1,500 75.00 1"));
  EXPECT_TRUE(hasLine(t, "total 2,000 100.00 4"));
}

TEST(ReportsTable, ByCauseListsEveryCause) {
  const std::string t = tableString(sample::sampleRun());
  EXPECT_TRUE(hasLine(t, "compute 1,000 50.00"));
  EXPECT_TRUE(hasLine(t, "fill_drain 200 10.00"));
  EXPECT_TRUE(hasLine(t, "memory_stall 300 15.00"));
  EXPECT_TRUE(hasLine(t, "noc 50 2.50"));
  EXPECT_TRUE(hasLine(t, "sfu 300 15.00"));
  EXPECT_TRUE(hasLine(t, "host 150 7.50"));  // 50 + 10 + 15 + 2.5 + 15 + 7.5 = 100
  EXPECT_TRUE(hasLine(t, "total 2,000 100.00"));
}

TEST(ReportsTable, WaitsOnlyForEnginesThatReportThem) {
  // The sample's qkv op waited 250 cycles on the NoC and 50 on a weight load (sample_run.h):
  // listed largest first, with their share of the run.
  const std::string t = tableString(sample::sampleRun());
  const size_t at = t.find("Units waited on");
  ASSERT_NE(at, std::string::npos) << t;
  const size_t noc = t.find("  noc ", at), load = t.find("  dma: load weights", at);
  ASSERT_NE(noc, std::string::npos) << t;
  ASSERT_NE(load, std::string::npos) << t;
  EXPECT_LT(noc, load);
  sim::RunStats analytical = sample::sampleRun();
  for (auto& op : analytical.ops) op.waits.clear();
  EXPECT_EQ(tableString(analytical).find("Units waited on"), std::string::npos);
}

TEST(ReportsTable, BytesByLevel) {
  const std::string t = tableString(sample::sampleRun());
  EXPECT_TRUE(hasLine(t, "DRAM 6.77 KiB (6,932 B)"));
  EXPECT_TRUE(hasLine(t, "Scratchpad 15.00 KiB (15,360 B)"));
}

TEST(ReportsTable, TopOps) {
  const std::string t = tableString(sample::sampleRun());
  EXPECT_TRUE(hasLine(t, "Top 3 ops by cycles"));
  EXPECT_TRUE(hasLine(t, "1 h0.attn.qkv MatMul array 1,500 75.00 80.00 compute ws m=4 n=4 k=12"));
  EXPECT_TRUE(hasLine(t, "2 h0.softmax Softmax sfu 300 15.00 0.00 sfu"));
  EXPECT_TRUE(hasLine(t, "3 embed, tokens Other host 200 10.00 0.00 host"));
}

TEST(ReportsTable, TopOpsShowASearchedMappingsGapAndShapeCost) {
  // A searched mapping carries gap_to_bound and array_shape_cost (dataflows::Mapping::flatten):
  // they get columns of their own ("-" for ops without them) and leave the mapping cell.
  sim::RunStats run = sample::sampleRun();
  run.ops[0].mapping = {{"dataflow", "ws"},
                        {"mapper", "search"},
                        {"gap_to_bound", "0.250000"},
                        {"array_shape_cost", "227.555556"},
                        {"gap_to_ideal", "283.444445"},
                        {"array_share", "0.004395"},
                        {"bound_spatial", "rows R:3 S:3  cols -"}};
  run.mapping_warnings = {"h0.attn.qkv: 1.2x the bound of dataflow ws"};
  const std::string t = tableString(run);
  EXPECT_TRUE(hasLine(t, "# name class place cycles % util% gap shape cause mapping"));
  EXPECT_TRUE(hasLine(
      t, "1 h0.attn.qkv MatMul array 1,500 75.00 80.00 0.25 227.56 compute ws mapper=search"));
  EXPECT_TRUE(hasLine(t, "2 h0.softmax Softmax sfu 300 15.00 0.00 - - sfu"));
  // The run's mapping warnings come with its other warnings, under the header.
  EXPECT_LT(lineIndex(t, "warning: h0.attn.qkv: 1.2x the bound of dataflow ws"),
            lineIndex(t, "Totals"));
  // Without a searched mapping in the list the columns stay away (see TopOps).
  EXPECT_THAT(tableString(sample::sampleRun()), Not(HasSubstr("shape")));
}

TEST(ReportsTable, TopNLimitsAndZeroOmits) {
  TableOptions one;
  one.top_n = 1;
  const std::string t1 = tableString(sample::sampleRun(), one);
  EXPECT_TRUE(hasLine(t1, "Top 1 ops by cycles"));
  EXPECT_THAT(t1, Not(HasSubstr("2 h0.softmax")));
  TableOptions none;
  none.top_n = 0;
  EXPECT_THAT(tableString(sample::sampleRun(), none), Not(HasSubstr("Top ")));
}

TEST(ReportsTable, LongNamesAreCutToTheWidth) {
  sim::RunStats run = sample::sampleRun();
  run.ops[0].name = std::string(80, 'x');
  TableOptions narrow;
  narrow.width = 100;
  const std::string t = tableString(run, narrow);
  EXPECT_THAT(t, HasSubstr("xxx... "));
  std::istringstream in(t);
  for (std::string line; std::getline(in, line);) {
    if (line.find("xxx") != std::string::npos) {
      EXPECT_LE(line.size(), 100u) << line;
    }
  }
}

TEST(ReportsTable, TheMappingIsNeverCut) {
  sim::RunStats run = sample::sampleRun();
  const std::string mapping = "ws m=12345 n=67890 k=13579 order=m,n,k double_buffered=false xyz";
  run.ops[0].mapping = {{"dataflow", mapping}};
  TableOptions narrow;
  narrow.width = 80;
  EXPECT_THAT(tableString(run, narrow), HasSubstr("xyz"));
}

TEST(ReportsTable, AccessesOnlyWhenAskedAndOnlyForOpsWithANest) {
  EXPECT_THAT(tableString(sample::sampleRun()), Not(HasSubstr("Accesses of")));
  TableOptions o;
  o.accesses = true;
  const std::string t = tableString(sample::sampleRun(), o);
  EXPECT_THAT(t, HasSubstr("Accesses of h0.attn.qkv"));
  EXPECT_THAT(t, Not(HasSubstr("Accesses of h0.softmax")));
  // level, instances, tensor, reads, fills, updates (words), as sample_run.h sets them.
  EXPECT_GE(lineIndex(t, "level instances tensor reads fills updates"), 0) << t;
  EXPECT_GE(lineIndex(t, "dram 1 output 0 0 512"), 0) << t;
  EXPECT_GE(lineIndex(t, "scratchpad 1 weight 8,192 4,096 0"), 0) << t;
  EXPECT_GE(lineIndex(t, "pe 16 weight 19,200 8,192 0"), 0) << t;
  EXPECT_LT(lineIndex(t, "scratchpad 1 output 0 0 0"), 0) << t;  // not held, never moved
  // Networks: bytes sent and delivered per tensor, zero tensors left out.
  EXPECT_GE(lineIndex(t, "scratchpad NoC 16 input 2,048 8,192"), 0) << t;
  EXPECT_LT(lineIndex(t, "scratchpad NoC 16 output 0 0"), 0) << t;
}

TEST(ReportsTable, EnergyLineOnlyWhenNonzero) {
  sim::RunStats run = sample::sampleRun();
  for (sim::OpStats& op : run.ops) op.energy_pj.clear();
  EXPECT_THAT(tableString(run), Not(HasSubstr("energy")));
}

}  // namespace
}  // namespace tessel::reports
