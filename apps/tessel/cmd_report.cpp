// tessel report: what run, compare, serve or sweep wrote, rendered as a self-contained HTML page,
// a Markdown summary or one table as CSV. The output's extension picks the format.
#include <algorithm>
#include <cctype>
#include <filesystem>

#include "apps/tessel/commands.h"
#include "reports/html/build.h"
#include "reports/html/html_report.h"
#include "reports/html/markdown.h"
#include "util/error.h"

namespace tessel::app {
namespace {

std::string formatOf(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == ".html" || ext == ".htm") return "html";
  if (ext == ".md" || ext == ".markdown") return "md";
  if (ext == ".csv") return "csv";
  throw ConfigError({path, 0, 0, ""}, "cannot tell the report format from the extension '" + ext +
                                          "': expected an output ending in .html, .md or .csv");
}

std::string csvOf(const reports::html::Report& r, const ReportArgs& args) {
  if (args.table.empty()) {
    throw ConfigError({args.output, 0, 0, "--table"},
                      "a .csv holds one table; name it with --table, one of: " + r.tableNames());
  }
  const reports::html::Table* t = r.table(args.table);
  if (!t) {
    throw ConfigError(
        {args.output, 0, 0, "--table"},
        "no table '" + args.table + "' in a " + r.kind + " report; its tables: " + r.tableNames());
  }
  return reports::html::tableCsv(*t);
}

}  // namespace

int reportCommand(const ReportArgs& args, std::ostream& out) {
  const std::string format = formatOf(args.output);
  if (!args.table.empty() && format != "csv") {
    throw ConfigError({args.output, 0, 0, "--table"},
                      "--table picks the table of a .csv output; .html and .md hold them all");
  }
  checkOutputs({{"-o", args.output}}, {args.input});
  reports::html::Report r = reports::html::loadReport(args.input, {args.metrics});
  if (!args.title.empty()) r.title = args.title;
  const std::string text = format == "html" ? reports::html::htmlReport(r)
                           : format == "md" ? reports::html::markdownReport(r)
                                            : csvOf(r, args);
  writeOutput(args.output, text, out);
  return 0;
}

}  // namespace tessel::app
