// The private edit-distance helper behind "did you mean".
#include "models/suggest.h"

#include <gtest/gtest.h>

namespace tessel::models::detail {
namespace {

TEST(ModelsSuggest, EditDistance) {
  EXPECT_EQ(editDistance("gpt2", "gpt2"), 0);
  EXPECT_EQ(editDistance("gtp2", "gpt2"), 1);  // neighbour swap counts once
  EXPECT_EQ(editDistance("GPT2", "gpt2"), 0);  // case-insensitive
  EXPECT_EQ(editDistance("", "abc"), 3);
  EXPECT_EQ(editDistance("kitten", "sitting"), 3);
}

TEST(ModelsSuggest, Closest) {
  EXPECT_EQ(closest("gtp2", {"gpt2", "gpt2-small"}), "gpt2");  // ties and near: first, nearest
  EXPECT_EQ(closest("alexnet", {"gpt2", "bert", "resnet50"}), "");
  EXPECT_EQ(closest("strid", {"H", "stride", "pad"}), "stride");
}

}  // namespace
}  // namespace tessel::models::detail
