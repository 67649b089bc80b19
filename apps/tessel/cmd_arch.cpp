// tessel arch check FILE / tessel arch schema / tessel dataflows.
#include <ostream>

#include "apps/tessel/commands.h"
#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "dataflows/problem.h"

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
    out << df.name << ": " << df.description << "\n    rows=" << nameOf(df.row_dim)
        << " cols=" << nameOf(df.col_dim) << " stream=" << nameOf(df.stream_dim) << "\n";
  }
  return 0;
}

}  // namespace tessel::app
