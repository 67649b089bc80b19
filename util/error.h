// Typed errors. Library code throws these; only apps/ turns them into messages and exit codes.
#pragma once

#include <stdexcept>
#include <string>

namespace tessel {

// Where in a user's file a value came from. line/column are 1-based; 0 means unknown.
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;
  std::string yaml_path;  // e.g. "accumulator.capacity" or "levels[2].banks"

  // "file:line:column" (omits what is unknown).
  std::string str() const;
};

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bad user configuration (YAML, -p overrides, workload names, dataflow files).
// what() reads "FILE:LINE:COL: at YAML_PATH: MESSAGE".
class ConfigError : public Error {
 public:
  ConfigError(SourceLocation where, const std::string& message);
  const SourceLocation& where() const { return where_; }
  const std::string& message() const { return message_; }

 private:
  SourceLocation where_;
  std::string message_;
};

// A request that cannot be satisfied by this design (e.g. no mapping fits).
class InfeasibleError : public Error {
 public:
  using Error::Error;
};

}  // namespace tessel
