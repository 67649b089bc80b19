#include "reports/html/build.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "reports/html/json_input.h"
#include "reports/html/llm_serve_report.h"

namespace tessel::reports::html {

Report loadReport(const std::string& path, const ReportOptions& options) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(path, ec)) badInput(path, "no such file or directory");
  if (fs::is_directory(path, ec)) return sweepReport(path, options);
  if (!options.metrics.empty()) {
    badInput(path,
             "--metric picks the charts of a sweep report; this input is a file, not a "
             "sweep directory");
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) badInput(path, "cannot read the file");
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string text = ss.str();
  Json doc;
  try {
    doc = Json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    badInput(path, std::string("not valid JSON (") + e.what() +
                       "); expected a run, compare, serve or llm_serve JSON or a sweep directory");
  }
  if (doc.is_object() && doc.value("kind", Json()) == "compare") return compareReport(text, path);
  if (doc.is_object() && doc.value("kind", Json()) == "serve") return serveReport(text, path);
  if (doc.is_object() && doc.value("kind", Json()) == "llm_serve")
    return llmServeReport(text, path);
  if (doc.is_object() && doc.contains("schema_version") && doc.contains("totals") &&
      doc.contains("ops")) {
    return runReport(text, path);
  }
  badInput(path,
           "expected a run JSON (`tessel run --json`: schema_version, totals, ops), a "
           "compare JSON (`tessel compare --json`: kind \"compare\"), a serve JSON (`tessel "
           "serve --json`: kind \"serve\"), an LLM serve JSON (`tessel serve --json` on a "
           "decoder: kind \"llm_serve\") or a sweep directory (`tessel sweep`: sweep.json)");
}

}  // namespace tessel::reports::html
