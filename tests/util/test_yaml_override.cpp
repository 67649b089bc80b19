// -p key.path=value overrides applied to a parsed document.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/util/error_of.h"
#include "util/yaml.h"

namespace tessel::yaml {
namespace {

using ::testing::HasSubstr;

const char* const kText =
    "accumulator:\n"            // 1
    "  capacity: 64 KiB\n"      // 2
    "  banks: 2\n"              // 3  value at col 10
    "array:\n"                  // 4
    "  dataflows: [ws, os]\n";  // 5  'ws' at col 15 ("  dataflows: [" is 14 chars)

Node at(const Document& doc, const std::string& dotted) {
  Node n = doc.root();
  size_t start = 0;
  for (;;) {
    const size_t dot = dotted.find('.', start);
    const std::string key = dotted.substr(start, dot == std::string::npos ? dot : dot - start);
    bool found = false;
    for (const auto& [k, v] : n.entries()) {
      if (k.scalar() == key) n = v, found = true;
    }
    if (!found) ADD_FAILURE() << "no " << dotted;
    if (dot == std::string::npos) return n;
    start = dot + 1;
  }
}

using tessel::testing::errorOf;

Document doc() { return Document::fromString(kText, "t.yaml"); }

TEST(YamlOverrideTest, ReplacesAValueAndLocatesItAtTheOption) {
  Document d = doc();
  d.override("accumulator.capacity=256KiB");
  const Node cap = at(d, "accumulator.capacity");
  EXPECT_EQ(cap.scalar(), "256KiB");
  EXPECT_EQ(cap.where().file, "<-p accumulator.capacity=256KiB>");
  EXPECT_EQ(cap.where().line, 0);  // no line in a command-line option
  EXPECT_EQ(cap.path(), "accumulator.capacity");
  EXPECT_EQ(at(d, "accumulator.banks").where().str(), "t.yaml:3:10");  // siblings untouched
}

TEST(YamlOverrideTest, ErrorsOnOverriddenValuesNameTheOption) {
  Document d = doc();
  d.override("accumulator.banks=two");
  EXPECT_EQ(errorOf([&] { at(d, "accumulator.banks").as<int>(); }),
            "<-p accumulator.banks=two>: at 'accumulator.banks': expected an integer, got 'two'");
}

TEST(YamlOverrideTest, ValuesAreYamlAndListsCanBeIndexed) {
  Document d = doc();
  d.override("array.dataflows[1]=is");
  auto items = at(d, "array.dataflows").items();
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].where().str(), "t.yaml:5:15");
  EXPECT_EQ(items[1].scalar(), "is");
  EXPECT_EQ(items[1].where().file, "<-p array.dataflows[1]=is>");
  d.override("array.dataflows=[ws]");  // a flow list replaces the whole list
  EXPECT_EQ(at(d, "array.dataflows").as<std::vector<std::string>>(),
            std::vector<std::string>{"ws"});
  d.override("sfu={ops: [gelu], lanes: 8}");  // a new section, given as a flow mapping
  EXPECT_EQ(at(d, "sfu.lanes").as<int>(), 8);
  EXPECT_EQ(at(d, "sfu.lanes").where().file, "<-p sfu={ops: [gelu], lanes: 8}>");
}

TEST(YamlOverrideTest, LaterOverridesWinAndReplaceEarlierLocations) {
  Document d = doc();
  d.override("accumulator.banks=4");
  d.override("accumulator={capacity: 1 KiB, banks: 8}");
  EXPECT_EQ(at(d, "accumulator.banks").as<int>(), 8);
  EXPECT_EQ(at(d, "accumulator.banks").where().file,
            "<-p accumulator={capacity: 1 KiB, banks: 8}>");
}

TEST(YamlOverrideTest, ANewMisspelledKeyIsCaughtByTheReader) {
  Document d = doc();
  d.override("accumulator.capcity=1 KiB");
  MapReader acc(at(d, "accumulator"));
  acc.find("capacity");
  acc.find("banks");
  EXPECT_EQ(errorOf([&] { acc.finish(); }),
            "<-p accumulator.capcity=1 KiB>: at 'accumulator.capcity': unknown key 'capcity' in "
            "'accumulator'; did you mean 'capacity'?");
}

TEST(YamlOverrideTest, EnsureMappingMakesRoomForOverrides) {
  Document d = doc();
  d.ensureMapping("host");
  d.ensureMapping("host.link");
  d.ensureMapping("accumulator");          // present: untouched
  d.ensureMapping("accumulator.banks.x");  // parent is a scalar: nothing happens
  d.override("host.link.latency=5");
  EXPECT_EQ(at(d, "host.link.latency").as<int>(), 5);
  EXPECT_EQ(at(d, "accumulator.banks").as<int>(), 2);
  EXPECT_EQ(at(d, "accumulator.capacity").scalar(), "64 KiB");
}

TEST(YamlOverrideTest, BadPathsAndAssignments) {
  Document d = doc();
  EXPECT_EQ(errorOf([&] { d.override("acumulator.capacity=1"); }),
            "<-p acumulator.capacity=1>: at 'acumulator': unknown key 'acumulator' in the top "
            "level; did you mean 'accumulator'?");
  EXPECT_EQ(errorOf([&] { d.override("array.dataflows[2]=is"); }),
            "<-p array.dataflows[2]=is>: at 'array.dataflows[2]': index 2 is out of range: "
            "'array.dataflows' has 2 elements");
  EXPECT_THAT(errorOf([&] { d.override("accumulator.banks.x=1"); }),
              HasSubstr("'accumulator.banks' is not a mapping"));
  EXPECT_THAT(errorOf([&] { d.override("accumulator.capacity"); }),
              HasSubstr("expected key.path=value"));
  EXPECT_THAT(errorOf([&] { d.override("=1"); }), HasSubstr("missing key path before '='"));
  EXPECT_THAT(errorOf([&] { d.override("accumulator..capacity=1"); }), HasSubstr("malformed path"));
  EXPECT_THAT(errorOf([&] { d.override("array.dataflows[x]=1"); }), HasSubstr("malformed path"));
  EXPECT_THAT(errorOf([&] { d.override("accumulator.capacity="); }),
              HasSubstr("no value after '='"));
  EXPECT_THAT(errorOf([&] { d.override("accumulator.capacity=[1"); }),
              HasSubstr("invalid YAML in value"));
  EXPECT_EQ(errorOf([&] { d.override("l2.capacity=1"); }),
            "<-p l2.capacity=1>: at 'l2': unknown key 'l2' in the top level (a missing section "
            "can be given whole: -p 'l2={...}')");
  // Nothing above changed the document.
  EXPECT_EQ(at(d, "accumulator.capacity").scalar(), "64 KiB");
}

}  // namespace
}  // namespace tessel::yaml

namespace tessel::yaml {
namespace {

// An anchored value aliased elsewhere: overriding one key must leave its aliases alone.
TEST(YamlOverrideTest, AnOverrideChangesOnlyItsKeyNotItsAliases) {
  Document d = Document::fromString(
      "dram: {bandwidth: &bw 16 B/cycle}\n"
      "dma: {bus_width: *bw}\n"
      "a: &blk {x: 1, y: 2}\n"
      "b: *blk\n",
      "t.yaml");
  d.override("dram.bandwidth=64 B/cycle");
  d.override("a.x=5");
  EXPECT_EQ(at(d, "dram.bandwidth").scalar(), "64 B/cycle");
  EXPECT_EQ(at(d, "dma.bus_width").scalar(), "16 B/cycle");
  EXPECT_EQ(at(d, "a.x").scalar(), "5");
  EXPECT_EQ(at(d, "b.x").scalar(), "1");
  // The untouched alias still reads the anchored value, located where the anchor is.
  EXPECT_EQ(at(d, "dma.bus_width").where().line, 1);
  EXPECT_EQ(at(d, "a.y").where().str(), "t.yaml:3:19");
}

TEST(YamlOverrideTest, KeysKeepTheirOrderWhenOverridden) {
  Document d = doc();
  d.override("accumulator.capacity=1KiB");
  std::vector<std::string> keys;
  for (const auto& [k, v] : at(d, "accumulator").entries()) keys.push_back(k.scalar());
  EXPECT_EQ(keys, (std::vector<std::string>{"capacity", "banks"}));
}

TEST(YamlDocumentTest, ASecondDocumentIsAnErrorAtItsStart) {
  EXPECT_EQ(errorOf([] { Document::fromString("a: 1\n---\nb: 2\n", "t.yaml"); }),
            "t.yaml:2:1: a second YAML document (or text after the first) starts here; give one "
            "document per file");
  // Text after a complete flow document was dropped without a word.
  EXPECT_THAT(errorOf([] { Document::fromString("{name: x}\nclock: 1 GHz\n", "t.yaml"); }),
              HasSubstr("t.yaml:2:1: a second YAML document (or text after the first)"));
  EXPECT_NO_THROW(Document::fromString("a: 1\n...\n", "t.yaml"));
  EXPECT_THAT(errorOf([] { Document::fromString("a: 1\n...\nb: 2\n", "t.yaml"); }),
              HasSubstr("t.yaml:3:1: a second YAML document"));
  // A leading marker alone is one document.
  EXPECT_NO_THROW(Document::fromString("---\na: 1\n", "t.yaml"));
}

// Fuzzing found that yaml-cpp's LoadAll never returns on a leading ',' (it yields empty
// documents forever): such text must be an error or a value, at once.
TEST(YamlDocumentTest, ALoneCommaDoesNotHang) {
  for (const char* text : {",", ", i", " ,", ",x\n"}) {
    try {
      Document::fromString(text, "t.yaml");
    } catch (const ConfigError&) {
    }
  }
}

TEST(YamlDocumentTest, TagsAreRejectedWhereWritten) {
  EXPECT_THAT(errorOf([] { Document::fromString("a: 1\nb: !!str 5\n", "t.yaml"); }),
              HasSubstr("t.yaml:2:4: YAML tags are not supported (found 'tag:yaml.org,2002:str')"));
  EXPECT_THAT(errorOf([] { Document::fromString("a: !mine {x: 1}\n", "t.yaml"); }),
              HasSubstr("t.yaml:1:4: YAML tags are not supported (found '!mine')"));
}

TEST(YamlDocumentTest, ATabInIndentationIsNamedAsSuch) {
  EXPECT_EQ(errorOf([] { Document::fromString("a:\n  b: 1\n\tc: 2\n", "t.yaml"); }),
            "t.yaml:3:1: tab in indentation: YAML indents with spaces only");
}

TEST(YamlDocumentTest, ADirectoryIsNotAFile) {
  EXPECT_THAT(errorOf([] { Document::fromFile(TESSEL_SOURCE_DIR); }),
              HasSubstr("is a directory, expected a YAML file"));
  EXPECT_THAT(errorOf([] { Document::fromFile("/nonexistent/x.yaml"); }),
              HasSubstr("/nonexistent/x.yaml: no such file"));
}

}  // namespace
}  // namespace tessel::yaml
