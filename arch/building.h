// Internal to arch/: the state of one load, shared by the reader, the defaults and validation.
#pragma once

#include <map>
#include <set>
#include <string>

#include "arch/accelerator.h"
#include "util/error.h"

namespace tessel::yaml {
class Node;
}

namespace tessel::arch {

struct Building {
  Accelerator acc;
  std::map<std::string, SourceLocation> where;  // YAML path -> where it was given
  std::set<std::string> given;                  // parameter paths the user set

  StorageLevel& level() { return acc.levels.back(); }  // the level section being read
  const StorageLevel* find(LevelKind kind) const { return acc.level(kind); }
  bool isGiven(const std::string& path) const { return given.count(path) > 0; }
  // Where `path` was given, else its nearest given ancestor (a section), else the top.
  SourceLocation locate(const std::string& path) const;
  [[noreturn]] void fail(const std::string& path, const std::string& message) const;
  // Records a located warning in acc.warnings.
  void warn(const std::string& path, const std::string& message);
};

// Walks schema() over the document: types, units, required keys, unknown keys.
void readSections(const yaml::Node& root, Building& b);
// Fills Need::Derived parameters the user left out (row widths, energies, ...).
void deriveDefaults(Building& b);
// Cross-checks between parameters (tile fits, dataflows the array supports, ...).
void validate(Building& b);

}  // namespace tessel::arch
