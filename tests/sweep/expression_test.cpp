#include <gtest/gtest.h>

#include "sweep/expression.h"

namespace tessel::sweep {
namespace {

double eval(const std::string& text) {
  return evaluate(
      text,
      [](const std::string& key) -> double {
        if (key == "scratchpad.capacity") return 65536;
        if (key == "array.rows") return 16;
        throw ConfigError({}, "no " + key);
      },
      {"spec.yaml", 3, 5, "constraints[0]"});
}

TEST(SweepExpression, UnitsPrecedenceAndComparisons) {
  EXPECT_EQ(eval("2 + 3 * 4"), 14);
  EXPECT_EQ(eval("(2 + 3) * 4"), 20);
  EXPECT_EQ(eval("64KiB"), 65536);
  EXPECT_EQ(eval("64 KiB + 1 MiB"), 65536 + 1048576);
  EXPECT_EQ(eval("1 GHz / 4"), 2.5e8);
  EXPECT_EQ(eval("scratchpad.capacity / array.rows"), 4096);
  EXPECT_EQ(eval("scratchpad.capacity == 64KiB"), 1);
  EXPECT_EQ(eval("scratchpad.capacity < 64KiB || array.rows >= 16"), 1);
  EXPECT_EQ(eval("!(array.rows > 8) && true"), 0);
  EXPECT_EQ(eval("min(array.rows, 4) + max(1, 2)"), 6);
  EXPECT_EQ(eval("-array.rows + 20"), 4);
}

TEST(SweepExpression, MalformedTextIsALocatedError) {
  for (const char* bad : {"2 +", "(1", "1 / 0", "3 $ 4", "min(1)"}) {
    try {
      eval(bad);
      ADD_FAILURE() << bad;
    } catch (const ConfigError& e) {
      EXPECT_EQ(e.where().line, 3) << bad;
      EXPECT_NE(std::string(e.what()).find(std::string("in '") + bad + "'"), std::string::npos) << e.what();
    }
  }
}

TEST(SweepExpression, QuantitiesOfValuesAsWritten) {
  EXPECT_EQ(*quantity("64KiB"), 65536);
  EXPECT_EQ(*quantity("16 B/cycle"), 16);
  EXPECT_EQ(*quantity("2 MB"), 2e6);
  EXPECT_EQ(*quantity("700 MHz"), 7e8);
  EXPECT_EQ(*quantity("12"), 12);
  EXPECT_FALSE(quantity("ws").has_value());
  EXPECT_FALSE(quantity("12 parsecs").has_value());
}

TEST(SweepExpression, IdentifiersAreTheKeysAndMetricsReadNotUnitsOrFunctions) {
  const SourceLocation at{"spec.yaml", 3, 5, "constraints[0]"};
  // "cycles" after a number is a unit; as an operand it is a name. identifiers() evaluates
  // nothing, so the division by zero below is not an error.
  EXPECT_EQ(identifiers("cycles <= 100 cycles && min(area_mm2, 2) / (macs - macs) < 16 B/cycle", at),
            (std::vector<std::string>{"cycles", "area_mm2", "macs"}));
  EXPECT_EQ(identifiers("array.rows * array.rows == true", at), (std::vector<std::string>{"array.rows"}));
  EXPECT_THROW(identifiers("area_mm2 <= (2", at), ConfigError);
}

}  // namespace
}  // namespace tessel::sweep
