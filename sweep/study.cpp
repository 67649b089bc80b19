#include "sweep/study.h"

#include <filesystem>

#include "util/paths.h"
#include "util/yaml.h"

namespace tessel::sweep {

Study loadStudy(const std::string& path) {
  namespace fs = std::filesystem;
  Study s;
  s.path = path;
  const yaml::Document doc = yaml::Document::fromFile(path);
  yaml::MapReader top(doc.root());
  s.name = top.optional<std::string>("name", fs::path(path).stem().string(), "the study's name");
  s.title = top.optional<std::string>("title", s.name, "the report's title");
  s.description = top.optional<std::string>("description", "", "one paragraph on what it shows");
  auto resolve = [&](const char* key, const char* what) {
    const yaml::Node n = top.require(key, what);
    const std::string full = resolveBeside(path, n.scalar("a sweep spec file"));
    if (!fs::exists(full)) n.fail("no sweep spec at '" + full + "'");
    return full;
  };
  s.steps = resolve("steps", "the sweep of the study's designs, in step order");
  s.grid = resolve("grid", "the sweep around the designs");
  if (auto notes = top.find("notes")) {
    for (const yaml::Node& n : notes->items()) {
      yaml::MapReader r(n);
      s.notes.emplace_back(r.required<std::string>("heading", "what the note is about"),
                           r.required<std::string>("text", "the explanation"));
      r.finish();
    }
  }
  top.finish();
  return s;
}

}  // namespace tessel::sweep
