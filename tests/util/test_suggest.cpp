#include <gtest/gtest.h>

#include "util/suggest.h"

namespace tessel {
namespace {

TEST(SuggestTest, EditDistanceCountsEachKindOfEdit) {
  EXPECT_EQ(editDistance("", ""), 0);
  EXPECT_EQ(editDistance("abc", ""), 3);  // three deletions
  EXPECT_EQ(editDistance("", "abc"), 3);  // three insertions
  EXPECT_EQ(editDistance("banks", "banks"), 0);
  EXPECT_EQ(editDistance("capcity", "capacity"), 1);  // one insertion
  EXPECT_EQ(editDistance("kitten", "sitting"), 3);    // k->s, e->i, +g
  EXPECT_EQ(editDistance("bnaks", "banks"), 1);       // one adjacent swap
  // Unrestricted Damerau-Levenshtein: swap to "AC", then insert B = 2 (optimal string
  // alignment, which cannot edit a swapped pair again, gives 3).
  EXPECT_EQ(editDistance("CA", "ABC"), 2);
}

TEST(SuggestTest, SuggestsOnlyCloseCandidates) {
  const std::vector<std::string> keys = {"capacity", "banks", "row_width", "ports"};
  EXPECT_EQ(closestMatch("capcity", keys), "capacity");  // 1 <= max(1, 7/3 = 2)
  EXPECT_EQ(closestMatch("bnaks", keys), "banks");       // 1 <= max(1, 5/3 = 1)
  EXPECT_EQ(closestMatch("rowwidth", keys), "row_width");
  EXPECT_EQ(closestMatch("latency", keys), std::nullopt);    // nothing within 2 edits
  EXPECT_EQ(closestMatch("x", {"os", "is"}), std::nullopt);  // 2 edits > limit of 1
  // Equally close: the earlier candidate wins (deterministic messages).
  EXPECT_EQ(closestMatch("xs", {"ws", "os"}), "ws");
}

TEST(SuggestTest, DidYouMeanFormatsOrStaysEmpty) {
  EXPECT_EQ(didYouMean("capcity", {"capacity"}), "; did you mean 'capacity'?");
  EXPECT_EQ(didYouMean("zzz", {"capacity"}), "");
  EXPECT_EQ(joinNames({"ws", "os", "is"}), "ws, os, is");
  EXPECT_EQ(joinNames({"inputs", "weights"}, " and "), "inputs and weights");
}

}  // namespace
}  // namespace tessel

namespace tessel {
namespace {

TEST(SuggestTest, ACaseOnlyDifferenceWinsOverOtherNearMisses) {
  // "KB" is one edit from both "B" and "kB"; only the case differs from "kB".
  EXPECT_EQ(closestMatch("KB", {"B", "kB", "MB"}), "kB");
  EXPECT_EQ(closestMatch("GHZ", {"Hz", "GHz"}), "GHz");
}

}  // namespace
}  // namespace tessel
