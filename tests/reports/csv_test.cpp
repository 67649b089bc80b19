// CSV: the documented header, a hand-checked row, and RFC 4180 quoting.
#include "reports/csv.h"
#include "reports/format.h"

#include <gtest/gtest.h>

#include <sstream>

#include "sample_run.h"
#include "schema_doc.h"

namespace tessel::reports {
namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST(ReportsCsv, Header) {
  const auto l = lines(csvString(sample::sampleRun()));
  ASSERT_EQ(l.size(), 5u);  // header + 4 ops
  EXPECT_EQ(l[0],
            "id,name,kind,class,placement,fused_into,macs,cycles,cycles_compute,"
            "cycles_fill_drain,cycles_memory_stall,cycles_noc,cycles_sfu,cycles_host,"
            "bytes_DRAM,bytes_Scratchpad,energy_pj,utilization,mapping,static_energy_pj,power_w,dtype,"
            "weight_dtype,fusion_group");
}

TEST(ReportsCsv, Rows) {
  const auto l = lines(csvString(sample::sampleRun()));
  const std::string kind = std::string(models::nameOf(models::OpKind::MatMul));
  const std::string cls = std::string(models::nameOf(models::OpClass::MatMul));
  // energy 1000.5 + 2000 pJ; DRAM 5632 and Scratchpad 15360 bytes (see stats_test). No leakage:
  // static 0; power 3000.5 pJ over 1500 cycles at 1 GHz = 2.00033... W.
  EXPECT_EQ(l[1], "0,h0.attn.qkv," + kind + "," + cls +
                      ",array,-1,19200,1500,1000,200,300,0,0,0,5632,15360,3000.5,0.800000,"
                      "dataflow=ws;mapper=gemmini_auto;array=4x4;tile_m=4;tile_n=4;tile_k=12;"
                      "loop_order=MNK;double_buffered=true,0," + quantityText(3000.5e-12 / 1500e-9) +
                      ",bf16,int4_g128_fp16,attention@h0.attn.qkv");
  // The fused GELU points at its anchor, op 0.
  EXPECT_NE(l[3].find(",fused,0,0,0,"), std::string::npos) << l[3];
}

TEST(ReportsCsv, NameWithCommaIsQuoted) {
  const auto l = lines(csvString(sample::sampleRun()));
  EXPECT_EQ(l[4].rfind("3,\"embed, tokens\",", 0), 0u) << l[4];
}

TEST(ReportsCsv, FieldQuoting) {
  EXPECT_EQ(csvField("plain"), "plain");
  EXPECT_EQ(csvField(""), "");
  EXPECT_EQ(csvField("a,b"), "\"a,b\"");
  EXPECT_EQ(csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csvField("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csvField(" padded"), "\" padded\"");
  EXPECT_EQ(csvField("k=v;k=v"), "k=v;k=v");
}

TEST(ReportsCsv, ColumnCountIsStablePerRow) {
  const sim::RunStats run = sample::sampleRun();
  const size_t columns = csvColumns(run).size();
  EXPECT_EQ(columns, 8u + sim::kNumCauses + run.level_names.size() + 8u);
  // No field in the sample has a quote, so counting unquoted commas counts cells.
  for (const std::string& line : lines(csvString(run))) {
    size_t cells = 1;
    bool quoted = false;
    for (char ch : line) {
      if (ch == '"') quoted = !quoted;
      if (ch == ',' && !quoted) ++cells;
    }
    EXPECT_EQ(cells, columns) << line;
  }
}

TEST(ReportsCsv, EveryColumnIsDocumentedAndEveryDocumentedColumnWritten) {
  const std::vector<std::string> documented = schemaPaths("## CSV columns");
  const std::vector<std::string> actual = csvColumns(sample::sampleRun());
  ASSERT_EQ(documented.size(), 18u);
  // '.' never occurs in a column name, so each name is a single "segment".
  for (const std::string& column : actual) {
    bool found = false;
    for (const std::string& p : documented) found = found || matchesPattern(p, column, '.');
    EXPECT_TRUE(found) << "written but not documented: " << column;
  }
  for (const std::string& p : documented) {
    bool found = false;
    for (const std::string& column : actual) found = found || matchesPattern(p, column, '.');
    EXPECT_TRUE(found) << "documented but not written: " << p;
  }
}

}  // namespace
}  // namespace tessel::reports
