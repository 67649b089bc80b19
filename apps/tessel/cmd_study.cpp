// tessel study NAME -o DIR: runs a study's two sweeps into DIR/steps and DIR/grid (resumable
// like any sweep), then writes DIR/report.html and DIR/report.md.
#include <filesystem>
#include <iostream>

#include "apps/tessel/commands.h"
#include "reports/html/html_report.h"
#include "reports/html/markdown.h"
#include "reports/html/study_report.h"
#include "sweep/mpi.h"
#include "sweep/study.h"
#include "util/error.h"

namespace tessel::app {
namespace {

// A file as given, else configs/studies/NAME.yaml under the current folder.
std::string findStudy(const std::string& given) {
  namespace fs = std::filesystem;
  if (fs::is_regular_file(given)) return given;
  const fs::path named = fs::path("configs/studies") / (given + ".yaml");
  if (fs::is_regular_file(named)) return named.string();
  std::string known;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("configs/studies", ec)) {
    if (e.path().extension() == ".yaml") known += (known.empty() ? "" : ", ") + e.path().stem().string();
  }
  throw ConfigError({"", 0, 0, "study"},
                    "no study file '" + given + "' and no " + named.string() +
                        (known.empty() ? std::string(" (run from the tessel folder)") : " (known: " + known + ")"));
}

}  // namespace

int studyCommand(const StudyArgs& args, std::ostream& out) {
  if (sweep::mpiWorldSize() > 1) {
    throw ConfigError({"", 0, 0, "study"},
                      "run `tessel study` without mpirun; its sweeps (configs/sweeps/) can each run "
                      "under mpirun with `tessel sweep`, into DIR/steps and DIR/grid, and a "
                      "`tessel study --resume` then writes the report");
  }
  const sweep::Study study = sweep::loadStudy(findStudy(args.study));
  const std::string html = args.out_dir + "/report.html", md = args.out_dir + "/report.md";
  for (const auto& [name, spec] : {std::pair<std::string, std::string>{"steps", study.steps},
                                   {"grid", study.grid}}) {
    SweepArgs s;
    s.spec = spec;
    s.out_dir = args.out_dir + "/" + name;
    s.workers = args.workers;
    s.resume = args.resume;
    s.quiet = args.quiet;
    if (!args.quiet) out << "== " << name << ": " << spec << "\n";
    const int code = sweepCommand(s, out);
    if (code != 0) return code;
  }
  checkOutputs({{"-o", html}, {"-o", md}}, {study.path, study.steps, study.grid});
  const reports::html::Report report =
      reports::html::studyReport(args.out_dir, {study.title, study.description, study.notes});
  writeOutput(html, reports::html::htmlReport(report), out);
  writeOutput(md, reports::html::markdownReport(report), out);
  if (!args.quiet) out << "report: " << html << " and " << md << "\n";
  return 0;
}

}  // namespace tessel::app
