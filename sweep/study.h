// A design study (configs/studies/*.yaml): two sweeps and the words that explain them.
//   name, title, description
//   steps: a sweep spec whose `designs:` are the study's steps, in order
//   grid:  a sweep spec around them (two swept keys: the report's heatmaps)
//   notes: [{heading, text}]: what mechanism produces each change, where model and
//          publication differ; printed in the report as written
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace tessel::sweep {

struct Study {
  std::string path;
  std::string name, title, description;
  std::string steps;  // sweep spec paths, resolved against the study's folder
  std::string grid;
  std::vector<std::pair<std::string, std::string>> notes;
};

// ConfigError (file:line:column, path) on unknown keys, missing sweeps or malformed notes.
Study loadStudy(const std::string& path);

}  // namespace tessel::sweep
