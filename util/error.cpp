#include "util/error.h"

namespace tessel {

std::string SourceLocation::str() const {
  std::string out = file.empty() ? "<input>" : file;
  if (line > 0) {
    out += ":" + std::to_string(line);
    if (column > 0) out += ":" + std::to_string(column);
  }
  return out;
}

static std::string formatConfigError(const SourceLocation& where, const std::string& message) {
  // Command-line options have no file: "--seq: must be positive".
  if (where.file.empty() && where.line == 0) {
    return where.yaml_path.empty() ? message : where.yaml_path + ": " + message;
  }
  std::string out = where.str() + ": ";
  if (!where.yaml_path.empty()) out += "at '" + where.yaml_path + "': ";
  return out + message;
}

ConfigError::ConfigError(SourceLocation where, const std::string& message)
    : Error(formatConfigError(where, message)), where_(std::move(where)), message_(message) {}

}  // namespace tessel
