#include "sim/analytical/energy.h"

namespace tessel::sim::analytical {

void addEnergy(OpStats& s, const arch::Accelerator& acc, const EnergyParts& parts) {
  for (size_t l = 0; l < acc.levels.size(); ++l) {
    const auto& lv = acc.levels[l];
    double pj = 0;
    for (size_t x = 0; x < kNumOperands; ++x) {
      pj += static_cast<double>(s.traffic[l].read_bytes[x]) * lv.readPj(static_cast<int>(x));
      pj += static_cast<double>(s.traffic[l].write_bytes[x]) * lv.writePj(static_cast<int>(x));
    }
    s.energy_pj.emplace_back(lv.name, pj);
  }
  s.energy_pj.emplace_back("register_file", parts.register_file);
  s.energy_pj.emplace_back("array", parts.array);
  s.energy_pj.emplace_back("epilogue", parts.epilogue);
  s.energy_pj.emplace_back("noc", parts.noc);
  s.energy_pj.emplace_back("sfu", parts.sfu);
  s.energy_pj.emplace_back("host", parts.host);
}

}  // namespace tessel::sim::analytical
