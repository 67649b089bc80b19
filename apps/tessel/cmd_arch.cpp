// tessel arch check FILE / tessel arch schema / tessel dataflows.
#include <ostream>

#include "apps/tessel/commands.h"
#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "dataflows/problem.h"
#include "util/suggest.h"

namespace tessel::app {

int archCheckCommand(const std::string& path, const std::vector<std::string>& overrides,
                     std::ostream& out) {
  const arch::Accelerator acc = arch::loadFile(path, overrides);
  out << arch::summary(acc);
  out << path << ": OK\n";
  return 0;
}

int archSchemaCommand(std::ostream& out) {
  out << arch::schemaDoc();
  return 0;
}

int dataflowsCommand(std::ostream& out) {
  for (const auto& name : dataflows::builtinDataflows()) {
    const dataflows::Dataflow df = dataflows::loadDataflow(name);
    auto dims = [](const std::vector<dataflows::nest::Dim>& v) {
      std::string s;
      for (auto d : v) s += (s.empty() ? "" : ",") + std::string(dataflows::nest::convName(d));
      return s.empty() ? std::string("-") : s;
    };
    static const char* const kTensor[] = {"inputs", "weights", "outputs"};
    std::string keeps;
    for (size_t t = 0; t < 3; ++t) {
      if (df.nest.pe_keeps[t]) keeps += (keeps.empty() ? "" : ",") + std::string(kTensor[t]);
    }
    out << df.name << ": " << df.description << "\n    arrays " << joinNames(df.array_kinds)
        << " | rows " << dims(df.nest.rows) << " | cols " << dims(df.nest.cols) << " | PE keeps "
        << (keeps.empty() ? "-" : keeps) << ", loops " << dims(df.nest.pe_loops) << "\n";
    if (df.gemm_view) {
      out << "    GEMM view: rows=" << nameOf(df.row_dim) << " cols=" << nameOf(df.col_dim)
          << " stream=" << nameOf(df.stream_dim) << "\n";
    }
  }
  return 0;
}

}  // namespace tessel::app
