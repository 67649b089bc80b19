#include "apps/tessel/validate_formats.h"

#include <algorithm>
#include <optional>

#include "kernels/validation/validate.h"
#include "util/error.h"
#include "util/suggest.h"

namespace tessel::app {

namespace {

const SourceLocation kAt{"", 0, 0, "--precision"};

bool endsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool isPlanFile(const std::string& s) {
  return endsWith(s, ".yaml") || endsWith(s, ".yml") || endsWith(s, ".json");
}

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  const auto e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> splitList(const std::string& list) {
  std::vector<std::string> items;
  size_t start = 0;
  for (;;) {
    const size_t comma = list.find(',', start);
    items.push_back(trimmed(list.substr(start, comma - start)));
    if (items.back().empty())
      throw ConfigError(
          kAt, "empty format in '" + list + "' (give dtypes or plan files, comma-separated)");
    if (comma == std::string::npos) return items;
    start = comma + 1;
  }
}

ValidateFormat planFormat(const std::string& label, const std::string& path) {
  ValidateFormat f{label, "mixed", path, models::loadPrecisionPlan(path)};
  kernels::checkExecutable(f.lowering);
  return f;
}

ValidateFormat dtypeFormat(const std::string& item) {
  const std::optional<DType> d = parseDType(item);
  if (!d) {
    throw ConfigError(kAt, "precision '" + item + "': " + dtypeError(item) +
                               "; or mixed with --plan, or a precision plan file .yaml/.yml/.json");
  }
  ValidateFormat f{item, std::string(nameOf(*d)), "", kernels::uniformPlan(*d)};
  f.lowering.default_where = kAt;
  kernels::checkExecutable(f.lowering);
  return f;
}

}  // namespace

std::vector<ValidateFormat> validateFormats(const std::string& precision, const std::string& plan) {
  const std::vector<std::string> items = splitList(precision);
  const bool mixed = std::find(items.begin(), items.end(), "mixed") != items.end();
  if (mixed && plan.empty())
    throw ConfigError({"", 0, 0, "--plan"}, "--precision mixed needs --plan FILE");
  if (!mixed && !plan.empty())
    throw ConfigError({"", 0, 0, "--plan"},
                      "--plan goes with --precision mixed (got --precision " + precision +
                          "; a plan file may also be given in the --precision list itself)");
  std::vector<ValidateFormat> formats;
  for (const std::string& item : items) {
    if (item == "mixed")
      formats.push_back(planFormat(item, plan));
    else if (isPlanFile(item))
      formats.push_back(planFormat(item, item));
    else
      formats.push_back(dtypeFormat(item));
  }
  return formats;
}

}  // namespace tessel::app
