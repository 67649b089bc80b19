#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "tests/util/error_of.h"
#include "util/yaml.h"

namespace tessel::yaml {
namespace {

using ::testing::HasSubstr;

// Columns below are 1-based and count the characters before the value plus one.
const char* const kText =
    "# a comment line\n"               // 1
    "name: tiny\n"                     // 2  value at col 7 ("name: " is 6 chars)
    "scratchpad:\n"                    // 3
    "  capacity: 256 KiB\n"            // 4  col 13 ("  capacity: " is 12)
    "  banks: sixteen\n"               // 5  col 10 ("  banks: " is 9)
    "  holds: [inputs, weights]\n"     // 6  'weights' at col 19 ("  holds: [inputs, ")
    "  flag: yes\n"                    // 7  col 9
    "dram: {bandwidth: 16 B/cycle}\n"  // 8  col 19 ("dram: {bandwidth: ")
    "empty:\n";                        // 9

Node child(const Node& map, const std::string& key) {
  for (const auto& [k, v] : map.entries()) {
    if (k.scalar() == key) return v;
  }
  ADD_FAILURE() << "no key " << key;
  return map;
}

using tessel::testing::errorOf;

TEST(YamlTest, EveryValueKnowsFileLineColumnAndPath) {
  const Node root = Document::fromString(kText, "t.yaml").root();
  const Node name = child(root, "name");
  EXPECT_EQ(name.where().str(), "t.yaml:2:7");
  EXPECT_EQ(name.path(), "name");
  const Node sp = child(root, "scratchpad");
  EXPECT_EQ(sp.where().str(), "t.yaml:3:1");  // a block mapping is located at its key
  EXPECT_EQ(child(sp, "capacity").where().str(), "t.yaml:4:13");
  EXPECT_EQ(child(sp, "capacity").path(), "scratchpad.capacity");
  const Node weights = child(sp, "holds").items().at(1);
  EXPECT_EQ(weights.where().str(), "t.yaml:6:19");
  EXPECT_EQ(weights.path(), "scratchpad.holds[1]");
  EXPECT_EQ(child(child(root, "dram"), "bandwidth").where().str(), "t.yaml:8:19");
  // yaml-cpp marks an empty value at the next token; we report the key that owns it.
  const Node empty = child(root, "empty");
  EXPECT_TRUE(empty.isNull());
  EXPECT_EQ(empty.where().str(), "t.yaml:9:1");
  EXPECT_EQ(empty.describe(), "nothing");
}

TEST(YamlTest, TypedValuesAndTypeErrors) {
  const Node root = Document::fromString(kText, "t.yaml").root();
  const Node sp = child(root, "scratchpad");
  EXPECT_EQ(child(root, "name").as<std::string>(), "tiny");
  EXPECT_EQ(child(sp, "holds").as<std::vector<std::string>>(),
            (std::vector<std::string>{"inputs", "weights"}));
  EXPECT_EQ(errorOf([&] { child(sp, "banks").as<int>(); }),
            "t.yaml:5:10: at 'scratchpad.banks': expected an integer, got 'sixteen'");
  // YAML 1.1's yes/no/on/off are not silently taken as booleans.
  EXPECT_EQ(errorOf([&] { child(sp, "flag").as<bool>(); }),
            "t.yaml:7:9: at 'scratchpad.flag': expected true or false, got 'yes'");
  EXPECT_THAT(errorOf([&] { sp.as<std::string>(); }),
              HasSubstr("expected a string, got a mapping"));
  EXPECT_THAT(errorOf([&] { child(sp, "capacity").as<double>(); }),
              HasSubstr("expected a number, got '256 KiB'"));
  EXPECT_THAT(errorOf([&] { child(sp, "capacity").items(); }), HasSubstr("expected a list"));
}

TEST(YamlTest, ScalarConversions) {
  const Node root = Document::fromString(
                        "a: 42\nb: -7\nc: 1.5\nd: true\ne: False\nf: 99999999999\ng: 1.5x\n", "s")
                        .root();
  EXPECT_EQ(child(root, "a").as<int>(), 42);
  EXPECT_EQ(child(root, "b").as<int64_t>(), -7);
  EXPECT_DOUBLE_EQ(child(root, "c").as<double>(), 1.5);
  EXPECT_TRUE(child(root, "d").as<bool>());
  EXPECT_FALSE(child(root, "e").as<bool>());
  EXPECT_EQ(child(root, "f").as<int64_t>(), 99999999999);
  EXPECT_THAT(errorOf([&] { child(root, "f").as<int>(); }), HasSubstr("out of range"));
  EXPECT_THAT(errorOf([&] { child(root, "c").as<int>(); }),
              HasSubstr("expected an integer, got '1.5'"));
  EXPECT_THAT(errorOf([&] { child(root, "g").as<double>(); }), HasSubstr("expected a number"));
}

TEST(YamlTest, MapReaderRequiredAndOptional) {
  const Node root = Document::fromString("scratchpad:\n  capacity: 64\n", "t.yaml").root();
  MapReader top(root);
  MapReader sp(top.require("scratchpad", "local memory"));
  EXPECT_EQ(sp.required<int>("capacity", "size"), 64);
  EXPECT_EQ(sp.optional<int>("banks", 4, "banks"), 4);  // absent: the default
  EXPECT_EQ(sp.knownKeys(), (std::vector<std::string>{"capacity", "banks"}));
  EXPECT_NO_THROW(sp.finish());
  EXPECT_NO_THROW(top.finish());
}

TEST(YamlTest, MissingRequiredKeyPointsAtTheParentMapping) {
  const Node root = Document::fromString(kText, "t.yaml").root();
  MapReader sp(child(root, "scratchpad"));
  EXPECT_EQ(errorOf([&] { sp.require("ports", "read/write ports"); }),
            "t.yaml:3:1: at 'scratchpad.ports': missing required key 'ports' in 'scratchpad' "
            "(read/write ports)");
  // The root mapping starts at its first key, line 2 (line 1 is a comment).
  MapReader top(root);
  EXPECT_EQ(
      errorOf([&] { top.required<std::string>("clock", "accelerator clock"); }),
      "t.yaml:2:1: at 'clock': missing required key 'clock' at top level (accelerator clock)");
}

TEST(YamlTest, UnknownKeyIsRejectedWithASuggestion) {
  const Node root =
      Document::fromString("scratchpad:\n  capcity: 256 KiB\n  bogus: 1\n", "t.yaml").root();
  MapReader sp(child(root, "scratchpad"));
  sp.optional<std::string>("capacity", "", "size");
  sp.optional<int>("banks", 1, "banks");
  // Line 2, column 3: the key itself.
  EXPECT_EQ(errorOf([&] { sp.finish(); }),
            "t.yaml:2:3: at 'scratchpad.capcity': unknown key 'capcity' in 'scratchpad'; did you "
            "mean 'capacity'?");
  sp.find("capcity");  // now known: the next unknown one has no close match
  EXPECT_EQ(errorOf([&] { sp.finish(); }),
            "t.yaml:3:3: at 'scratchpad.bogus': unknown key 'bogus' in 'scratchpad'");
}

TEST(YamlTest, DuplicateKeysAndNonMappings) {
  const Node dup = Document::fromString("a: 1\nb: 2\na: 3\n", "t.yaml").root();
  EXPECT_EQ(errorOf([&] { MapReader r(dup); }),
            "t.yaml:3:1: at 'a': duplicate key 'a' (first given on line 1)");
  const Node list = Document::fromString("- a\n- b\n", "t.yaml").root();
  EXPECT_THAT(errorOf([&] { MapReader r(list); }), HasSubstr("expected a mapping, got a list"));
}

TEST(YamlTest, SyntaxErrorsCarryYamlCppsPositionOneBased) {
  // "extra: 1" is indented under the scalar "1 GHz": the ':' at line 3, column 8 cannot start
  // a mapping value there. yaml-cpp reports it 0-based as (2, 7).
  EXPECT_EQ(errorOf([] { Document::fromString("name: t\nclock: 1 GHz\n  extra: 1\n", "s.yaml"); }),
            "s.yaml:3:8: invalid YAML: illegal map value");
  // A tab where indentation is expected: line 2, column 1.
  EXPECT_EQ(errorOf([] { Document::fromString("name: t\n\tclock: 1 GHz\n", "s.yaml"); }),
            "s.yaml:2:1: tab in indentation: YAML indents with spaces only");
}

TEST(YamlTest, FilesAreReadAndMissingFilesReported) {
  const std::string path = ::testing::TempDir() + "tessel_yaml_test.yaml";
  std::ofstream(path) << "name: tiny\nclock: 1 GHz\n";
  const Node root = Document::fromFile(path).root();
  EXPECT_EQ(child(root, "clock").where().str(), path + ":2:8");
  std::remove(path.c_str());
  EXPECT_EQ(errorOf([] { Document::fromFile("no/such/file.yaml"); }),
            "no/such/file.yaml: no such file");
}

TEST(YamlTest, PathHelpers) {
  EXPECT_EQ(joinPath("", "name"), "name");
  EXPECT_EQ(joinPath("host", "link"), "host.link");
  EXPECT_EQ(parentPath("host.link.latency"), "host.link");
  EXPECT_EQ(parentPath("levels[2]"), "levels");
  EXPECT_EQ(parentPath("name"), "");
}

}  // namespace
}  // namespace tessel::yaml
