// tessel arch import CFG -o DESIGN.yaml: a SCALE-Sim .cfg as a tessel design (arch/scalesim_config.h).
#include <ostream>

#include "apps/tessel/commands.h"
#include "arch/load.h"
#include "arch/scalesim_config.h"

namespace tessel::app {

int archImportCommand(const std::string& cfg_path, const std::string& out_path,
                      std::ostream& out) {
  checkOutputs({{"-o", out_path}}, {cfg_path});
  const arch::ScalesimImport design = arch::importScalesimConfig(cfg_path);
  // The design must load as written; a failure here is a bug of the importer, not of the input.
  arch::loadString(design.yaml, out_path);
  writeOutput(out_path, design.yaml, out);
  if (isStandardOutput(out_path)) return 0;  // the YAML's comments carry the assumptions
  out << "assumptions:\n";
  for (const std::string& a : design.assumptions) out << "  - " << a << "\n";
  out << "wrote " << out_path << " from " << cfg_path << "; check it with `tessel arch check "
      << out_path << "`\n";
  return 0;
}

}  // namespace tessel::app
