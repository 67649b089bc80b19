// Every class of bad YAML gives one ConfigError naming file:line:column and the YAML path.
// Line numbers refer to kTiny in tiny.h; columns count the characters before the value + 1.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tiny.h"

namespace tessel::arch {
namespace {

using testing::col;
using ::testing::HasSubstr;
using testing::loadError;
using ::testing::StartsWith;
using testing::tinyPlus;
using testing::tinyWith;

TEST(ArchErrorTest, TheTinyConfigIsValid) {
  EXPECT_NO_THROW(loadString(testing::join(testing::kTiny), "tiny.yaml"));
}

TEST(ArchErrorTest, UnknownKeyInASection) {
  EXPECT_EQ(loadError(tinyWith(7, "  capcity: 256 KiB")),
            "tiny.yaml:7:3: at 'scratchpad.capcity': unknown key 'capcity' in 'scratchpad'; did "
            "you mean 'capacity'?");
}

TEST(ArchErrorTest, UnknownTopLevelKey) {
  EXPECT_EQ(loadError(tinyWith(9, "acumulator:")),
            "tiny.yaml:9:1: at 'acumulator': unknown key 'acumulator' at top level; did you mean "
            "'accumulator'?");
}

TEST(ArchErrorTest, UnknownKeyInANestedSection) {
  const std::string line = "  link: {bandwith: 8 B/cycle}";  // line 17, key at col 10
  EXPECT_EQ(loadError(tinyPlus({"host:", line})),
            "tiny.yaml:17:10: at 'host.link.bandwith': unknown key 'bandwith' in 'host.link'; "
            "did you mean 'bandwidth'?");
}

TEST(ArchErrorTest, WrongTypes) {
  EXPECT_EQ(loadError(tinyWith(8, "  banks: four")),
            "tiny.yaml:8:10: at 'scratchpad.banks': expected an integer, got 'four'");
  EXPECT_EQ(loadError(tinyWith(15, "  dataflows: ws")),
            "tiny.yaml:15:14: at 'array.dataflows': expected a list, got 'ws'");
  // A section given as a list is located at its key (line 16, column 1).
  EXPECT_EQ(loadError(tinyPlus({"sfu: [softmax]"})),
            "tiny.yaml:16:1: at 'sfu': expected a mapping, got a list");
  const std::string flag = "  weight_double_buffered: yes";
  EXPECT_EQ(loadError(tinyPlus({flag})),
            "tiny.yaml:16:" + std::to_string(col(flag, "yes")) +
                ": at 'array.weight_double_buffered': expected true or false, got 'yes'");
}

// The sparsity section (line 16 of the tiny config plus it): a pattern, an operand, a format
// and a level the design lacks, each located at its value.
TEST(ArchErrorTest, SparsityMistakesAreLocated) {
  const std::string pattern = "sparsity: {structured: [\"3:5\"]}";
  EXPECT_THAT(loadError(tinyPlus({pattern})),
              StartsWith("tiny.yaml:16:" + std::to_string(col(pattern, "\"3:5\"")) +
                         ": at 'sparsity.structured[0]': unknown N:M pattern '3:5'"));
  const std::string operand = "sparsity: {skip: [outputs]}";
  EXPECT_THAT(loadError(tinyPlus({operand})),
              StartsWith("tiny.yaml:16:" + std::to_string(col(operand, "outputs")) +
                         ": at 'sparsity.skip[0]': unknown operand 'outputs'; accepted: inputs, "
                         "weights"));
  const std::string format = "sparsity: {formats: {dram: {weights: zip}}}";
  EXPECT_THAT(loadError(tinyPlus({format})),
              StartsWith("tiny.yaml:16:" + std::to_string(col(format, "zip")) +
                         ": at 'sparsity.formats.dram.weights': unknown value 'zip'"));
  const std::string level = "sparsity: {formats: {l2: {inputs: bitmask}}}";
  EXPECT_EQ(loadError(tinyPlus({level})),
            "tiny.yaml:16:" + std::to_string(col(level, "bitmask")) +
                ": at 'sparsity.formats.l2.inputs': this design has no l2 to keep inputs "
                "compressed in");
  const std::string reads = "sparsity: {skip_reads: {l2: {weights: inputs}}}";
  EXPECT_EQ(loadError(tinyPlus({reads})),
            "tiny.yaml:16:" + std::to_string(col(reads, "inputs}")) +
                ": at 'sparsity.skip_reads.l2.weights': this design has no l2 to skip reads of "
                "weights in");
  const std::string rf = "sparsity: {formats: {register_file: {weights: csr}}}";
  EXPECT_EQ(loadError(tinyPlus({rf})),
            "tiny.yaml:16:" + std::to_string(col(rf, "csr")) +
                ": at 'sparsity.formats.register_file.weights': this design's PEs have no "
                "register file for weights to keep compressed in");
  const std::string leader = "sparsity: {gate_reads: {dram: {weights: outputs}}}";
  EXPECT_THAT(loadError(tinyPlus({leader})),
              StartsWith("tiny.yaml:16:" + std::to_string(col(leader, "outputs")) +
                         ": at 'sparsity.gate_reads.dram.weights': unknown value 'outputs'"));
}

TEST(ArchErrorTest, WrongUnit) {
  EXPECT_THAT(loadError(tinyWith(4, "  bandwidth: 16 B/clk")),
              StartsWith("tiny.yaml:4:14: at 'dram.bandwidth': unknown unit 'B/clk' in "
                         "'16 B/clk' for a bandwidth; accepted: B/cycle"));
  EXPECT_THAT(loadError(tinyWith(2, "clock: 1 Ghz")),
              StartsWith("tiny.yaml:2:8: at 'clock': unknown unit 'Ghz'"));
}

TEST(ArchErrorTest, MissingRequiredKeyPointsAtItsSection) {
  // accumulator (line 9) without capacity.
  EXPECT_EQ(loadError(tinyWith(10, "  ports: 1")),
            "tiny.yaml:9:1: at 'accumulator.capacity': missing required key 'capacity' in "
            "'accumulator' (size)");
  EXPECT_THAT(loadError(tinyWith(2, "description: no clock")),
              StartsWith("tiny.yaml:1:1: at 'clock': missing required key 'clock' at top level"));
  auto no_array = testing::kTiny;
  no_array.resize(11);
  EXPECT_EQ(loadError(testing::join(no_array)),
            "tiny.yaml:1:1: at 'array': missing required key 'array' at top level (the PE array)");
}

TEST(ArchErrorTest, ZeroAndNegativeValues) {
  EXPECT_EQ(loadError(tinyWith(7, "  capacity: 0 B")),
            "tiny.yaml:7:13: at 'scratchpad.capacity': must be greater than zero, got '0 B'");
  EXPECT_EQ(loadError(tinyWith(4, "  bandwidth: 0 B/cycle")),
            "tiny.yaml:4:14: at 'dram.bandwidth': must be greater than zero, got '0 B/cycle'");
  EXPECT_EQ(loadError(tinyWith(2, "clock: 0 GHz")),
            "tiny.yaml:2:8: at 'clock': must be greater than zero, got '0 GHz'");
  EXPECT_EQ(loadError(tinyWith(13, "  rows: 0")),
            "tiny.yaml:13:9: at 'array.rows': must be greater than zero, got '0'");
  EXPECT_EQ(loadError(tinyWith(8, "  banks: -4")),
            "tiny.yaml:8:10: at 'scratchpad.banks': must not be negative, got '-4'");
  EXPECT_EQ(loadError(tinyWith(10, "  capacity: -64 KiB")),
            "tiny.yaml:10:13: at 'accumulator.capacity': a size must not be negative, got "
            "'-64 KiB'");
  // Lists and mappings are located at their key (column 3), like sections.
  EXPECT_EQ(loadError(tinyWith(15, "  dataflows: []")),
            "tiny.yaml:15:3: at 'array.dataflows': must not be empty");
}

TEST(ArchErrorTest, ValueTooLargeForTheField) {
  const std::string line = "  register_file: 4 GiB";
  EXPECT_EQ(loadError(tinyPlus({line})),
            "tiny.yaml:16:" + std::to_string(col(line, "4 GiB")) +
                ": at 'array.register_file': '4 GiB' is too large for 'register_file'");
}

TEST(ArchErrorTest, RegisterFilePerTensorMistakesAreLocated) {
  const std::string typo = "  register_file: {weigths: 448 B}";
  EXPECT_EQ(loadError(tinyPlus({typo})),
            "tiny.yaml:16:" + std::to_string(col(typo, "weigths")) +
                ": at 'array.register_file.weigths': unknown tensor 'weigths'; accepted: inputs, "
                "weights, outputs; did you mean 'weights'?");
  const std::string unit = "  register_file: {inputs: 24 bytes}";
  EXPECT_THAT(loadError(tinyPlus({unit})),
              ::testing::HasSubstr("tiny.yaml:16:" + std::to_string(col(unit, "24 bytes")) +
                                   ": at 'array.register_file.inputs': unknown unit 'bytes'"));
  const std::string huge = "  register_file: {outputs: 4 GiB}";
  EXPECT_THAT(loadError(tinyPlus({huge})),
              ::testing::HasSubstr("'4 GiB' is too large for 'register_file'"));
  EXPECT_THAT(loadError(tinyPlus({"  register_file: {}"})),
              ::testing::HasSubstr("at 'array.register_file': must name at least one tensor"));
  EXPECT_THAT(loadError(tinyPlus({"  register_file: [inputs]"})),
              ::testing::HasSubstr("at 'array.register_file'"));
}

// A pool of 0 B holds nothing: refused where it is written, as a scalar capacity of 0 is, so
// `arch check` and `run` cannot disagree about it (DRAM's 0 = unbounded is the one exception).
TEST(ArchErrorTest, AZeroCapacityPoolIsRefused) {
  const std::string zero = "  register_file: {weights: 0 B, inputs: 24 B}";
  EXPECT_THAT(loadError(tinyPlus({zero})),
              HasSubstr("tiny.yaml:16:" + std::to_string(col(zero, "0 B")) +
                        ": at 'array.register_file.weights': a capacity of '0 B' holds nothing"));
  EXPECT_NO_THROW(loadString(tinyWith(5, "  latency: 100 ns\n  capacity: 0 B"),
                             "tiny.yaml"));
}

// Quantities whose 0 means nothing physical (a supply, a clock) are refused by the one range
// check every value goes through.
TEST(ArchErrorTest, ZeroVoltsIsRefused) {
  const std::string zero = "technology: {voltage: 0 V}";
  EXPECT_THAT(loadError(tinyPlus({zero})),
              HasSubstr("tiny.yaml:16:" + std::to_string(col(zero, "0 V")) +
                        ": at 'technology.voltage': must be greater than zero, got '0 V'"));
  EXPECT_NO_THROW(loadString(tinyPlus({"technology: {voltage: 0.9 V}"}),
                             "tiny.yaml"));
}

TEST(ArchErrorTest, UnknownDtype) {
  const std::string e = loadError(tinyPlus({"  input_dtype: fp8_e4m2"}));
  EXPECT_THAT(e, ::testing::StartsWith("tiny.yaml:16:16: at 'array.input_dtype': unknown dtype 'fp8_e4m2'; "
                                       "accepted: int8, int16, int32, fp16, bf16, fp32, int4, uint4, fp8_e4m3, "));
  EXPECT_THAT(e, ::testing::HasSubstr("<element>_g<block>_<scale> (e.g. int4_g128_fp16)"));
  EXPECT_THAT(e, ::testing::EndsWith("did you mean 'fp8_e4m3'?"));
}

// A name of the grouped shape names its wrong part, not "unknown dtype" beside that shape.
TEST(ArchErrorTest, GroupedDtypeNamesTheWrongPart) {
  EXPECT_THAT(loadError(tinyPlus({"  input_dtype: mxfp8_g0_e8m0"})),
              ::testing::HasSubstr("tiny.yaml:16:16: at 'array.input_dtype': dtype 'mxfp8_g0_e8m0' "
                                   "(<element>_g<block>_<scale>): block size 0 must be ≥ 1"));
  EXPECT_THAT(loadError(tinyPlus({"  input_dtype: int4_g128_fp9"})),
              ::testing::HasSubstr("scale 'fp9' must be e8m0, fp8_e4m3, fp16, bf16 or fp32"));
  EXPECT_THAT(loadError(tinyPlus({"  input_dtype: int3_g128_fp16"})),
              ::testing::HasSubstr("element 'int3' is not a plain dtype"));
  EXPECT_THAT(loadError(tinyPlus({"  input_dtype: int4_g9000_fp16"})),
              ::testing::HasSubstr("block size 9000 must be at most 4096"));
}

TEST(ArchErrorTest, UnknownThroughputPair) {
  // "  throughput: {bf16: 1, bf16*int3: 1}": the key at column 25.
  EXPECT_THAT(loadError(tinyPlus({"  input_dtype: bf16", "  throughput: {bf16: 1, bf16*int3: 1}"})),
              ::testing::HasSubstr("tiny.yaml:17:25: at 'array.throughput.bf16*int3': in the dtype pair "
                                   "'bf16*int3' (<activation dtype>*<weight dtype>, e.g. bf16*int4): "
                                   "unknown dtype 'int3'"));
  EXPECT_THAT(loadError(tinyPlus({"  throughput: {int8: 1, fp8: 0}"})),
              ::testing::HasSubstr("at 'array.throughput.fp8': must be greater than zero"));
}

TEST(ArchErrorTest, UnknownDataflowName) {
  EXPECT_EQ(loadError(tinyWith(15, "  dataflows: [ws, xs]")),
            "tiny.yaml:15:19: at 'array.dataflows[1]': unknown dataflow 'xs'; accepted: ws, os, "
            "is, rs, nlr; did you mean 'ws'?");
  EXPECT_EQ(loadError(tinyWith(15, "  dataflows: [ws, ws]")),
            "tiny.yaml:15:19: at 'array.dataflows[1]': 'ws' is listed twice");
}

TEST(ArchErrorTest, UnknownChoice) {
  EXPECT_EQ(loadError(tinyPlus({"  kind: systolc"})),
            "tiny.yaml:16:9: at 'array.kind': unknown value 'systolc'; accepted: systolic, "
            "spatial; did you mean 'systolic'?");
}

TEST(ArchErrorTest, UnknownSfuOp) {
  const std::string line = "  ops: [softmax, gelu, tanh]";
  EXPECT_THAT(loadError(tinyPlus({"sfu:", line})),
              StartsWith("tiny.yaml:17:" + std::to_string(col(line, "tanh")) +
                         ": at 'sfu.ops[2]': unknown op 'tanh'; accepted: softmax, layernorm, "
                         "gelu, add, relu, quantize, dequantize, maxpool, avgpool, batchnorm"));
}

TEST(ArchErrorTest, UnknownEpilogueOpAndHostCostOp) {
  const std::string epilogue = "  epilogue_ops: [relu, gelu]";
  EXPECT_THAT(loadError(tinyPlus({epilogue})),
              StartsWith("tiny.yaml:16:" + std::to_string(col(epilogue, "gelu")) +
                         ": at 'array.epilogue_ops[1]': unknown op 'gelu'"));
  // Map keys are checked too, at the key.
  const std::string costs = "  cycles_per_element: {sofmax: 3}";
  EXPECT_THAT(loadError(tinyPlus({"host:", costs})),
              StartsWith("tiny.yaml:17:" + std::to_string(col(costs, "sofmax")) +
                         ": at 'host.cycles_per_element.sofmax': unknown op 'sofmax'"));
}

TEST(ArchErrorTest, DuplicateKey) {
  EXPECT_EQ(loadError(tinyWith(8, "  capacity: 128 KiB")),
            "tiny.yaml:8:3: at 'scratchpad.capacity': duplicate key 'capacity' (first given on "
            "line 7)");
}

TEST(ArchErrorTest, YamlSyntaxError) {
  // A tab where indentation is expected (line 3, column 1).
  EXPECT_EQ(loadError(tinyWith(3, "\tdram:")),
            "tiny.yaml:3:1: tab in indentation: YAML indents with spaces only");
  // "extra: 1" indented under the scalar "1 GHz": its ':' (line 3, column 8) is illegal.
  EXPECT_EQ(loadError(tinyWith(3, "  extra: 1")), "tiny.yaml:3:8: invalid YAML: illegal map value");
}

TEST(ArchErrorTest, MissingFile) {
  try {
    loadFile("no/such/arch.yaml");
    FAIL() << "loaded a missing file";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "no/such/arch.yaml: no such file");
  }
}

}  // namespace
}  // namespace tessel::arch
