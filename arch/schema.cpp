// THE table: every accelerator YAML parameter. Reading (arch/reader.cpp), defaults
// (arch/defaults.cpp) and the documentation (schemaDoc) all come from here. The rows are
// written in the vocabulary of arch/schema_rows.h; the SFU/host op lists and the host's default
// costs per op are in arch/op_costs.cpp; the storage levels' rows in arch/schema_levels.cpp.
#include "arch/schema.h"

#include "arch/building.h"
#include "arch/op_costs.h"
#include "arch/schema_levels.h"
#include "arch/schema_rows.h"
#include "tech/technology.h"

namespace tessel::arch {
namespace {

using T = ValueType;

}  // namespace

// ---- the parameters -------------------------------------------------------------------------

const std::vector<std::string>& dataflowNames() {
  static const std::vector<std::string> names = {"ws", "os", "is", "rs", "nlr"};
  return names;
}
const std::vector<std::string>& systolicDataflows() {
  static const std::vector<std::string> names = {"ws", "os", "is"};
  return names;
}
const std::vector<std::string>& epilogueOpNames() {
  static const std::vector<std::string> names = {"relu",     "requantize", "residual_add",
                                                 "maxpool",  "avgpool",    "batchnorm",
                                                 "quantize", "dequantize"};
  return names;
}

namespace {

std::vector<ParamSpec> topParams() {
  return {
      req("name", T::Text, "the design's name, shown in reports", into(top, &Accelerator::name)),
      opt("description", T::Text, "\"\"",
          "free text: what the design is and where its numbers "
          "come from",
          into(top, &Accelerator::description)),
      pos(req("clock", T::Frequency, "accelerator clock; ns and GB/s values convert with it",
              into(top, &Accelerator::clock_hz))),
  };
}


std::vector<ParamSpec> dmaParams() {
  return {
      pos(opt("bus_width", T::Bandwidth, "16 B/cycle", "width of the DMA data bus",
              into(dma, &Dma::bus_bytes_per_cycle))),
      pos(opt("max_request", T::Bytes, "64 B", "bytes per memory request",
              into(dma, &Dma::max_request_bytes))),
      pos(opt("max_inflight", T::Integer, "16", "outstanding requests",
              into(dma, &Dma::max_inflight))),
      opt("row_requests", T::Boolean, "true",
          "one request per tile row (a narrow row makes a short request); false: every "
          "request carries max_request bytes",
          into(dma, &Dma::row_requests)),
      upTo(64, pos(opt("engines", T::Integer, "2",
                       "DMA engines per core (assumed: a reader and a writer, as Gemmini's "
                       "StreamReader and StreamWriter)",
                       into(dma, &Dma::engines)))),
      pos(opt("gates", T::Real, "15000",
              "NAND2-equivalent gates of one engine's address generation and request tracking "
              "(assumed)",
              into(dma, &Dma::gates))),
      der("area", T::Area, "engines x (gates + a buffer of max_inflight x max_request) / utilization",
          "silicon area of one core's DMA engines", into(dma, &Dma::area_mm2)),
      der("leakage", T::Power, "the technology's logic and SRAM leakage", "leakage of one core's DMA engines",
          into(dma, &Dma::leakage_mw)),
  };
}

// Defaults: Gemmini's reservation station (Configs.scala, reservation_station_entries_*).
std::vector<ParamSpec> controllerParams() {
  return {
      pos(opt("load_entries", T::Integer, "8", "reservation-station entries for loads (DMA in)",
              into(ctl, &Controller::load_entries))),
      pos(opt("execute_entries", T::Integer, "16",
              "reservation-station entries for array, SFU and host commands",
              into(ctl, &Controller::execute_entries))),
      pos(opt("store_entries", T::Integer, "4", "reservation-station entries for stores (DMA out)",
              into(ctl, &Controller::store_entries))),
      pos(opt("gates", T::Real, "20000",
              "NAND2-equivalent gates of the sequencer and command decoder (assumed)",
              into(ctl, &Controller::gates))),
      upTo(4096, pos(opt("command_bits", T::Integer, "128",
                         "bits of one queued command, held in flip-flops (RoCC: two 64-bit operands)",
                         into(ctl, &Controller::command_bits)))),
      opt("instruction_memory", T::Bytes, "0 B", "SRAM holding the program (0 = commands come from the host)",
          into(ctl, &Controller::instruction_memory_bytes)),
      upTo(1, opt("activity", T::Real, "0.1", "fraction of the controller's gates switching per cycle (assumed)",
                  into(ctl, &Controller::activity))),
      opt("launch_latency", T::Time, "0 cycles",
          "cycles from one kernel's end to the next one's start (a GPU's kernel launch), once per "
          "op or fused group the device runs; 0 = commands stream back to back",
          into(ctl, &Controller::launch_cycles)),
      der("area", T::Area, "(gates + queue flip-flops) / utilization + the instruction memory",
          "silicon area of one core's controller", into(ctl, &Controller::area_mm2)),
      der("leakage", T::Power, "the technology's logic and SRAM leakage", "leakage of one core's controller",
          into(ctl, &Controller::leakage_mw)),
      der("energy", T::Energy, "gates x activity x a gate's switching energy",
          "energy per cycle of the controller's logic, drawn every cycle",
          into(ctl, &Controller::energy_pj_per_cycle)),
  };
}

// What the die adds around the blocks (arch/chip_parts.cpp). Defaults assumed, named so.
std::vector<ParamSpec> floorplanParams() {
  return {
      upTo(1, pos(opt("logic_utilization", T::Real, "0.7",
                      "standard-cell area over placed block area (assumed: 60-80 % is usual)",
                      into(plan, &Floorplan::logic_utilization)))),
      pos(opt("sram_macro_size", T::Bytes, "64 KiB", "the largest SRAM macro (assumed)",
              into(plan, &Floorplan::sram_macro_bytes))),
      upTo(4096, pos(opt("sram_macro_width", T::Integer, "256", "the widest SRAM macro word, bits (assumed)",
                         into(plan, &Floorplan::sram_macro_width)))),
      der("macro_halo", T::Length, "the technology's sram.macro_halo_um",
          "space kept around each SRAM macro, between neighbours and along the block's edge: its power "
          "ring and the routing to its pins (0 = macros abut)",
          into(plan, &Floorplan::macro_halo_um)),
      opt("clock_gating", T::Boolean, "true", "an idle array's clock is gated (false: clocked every cycle)",
          into(plan, &Floorplan::clock_gating)),
      der("clock_energy", T::Energy, "the technology's flip-flop energy per bit",
          "clock energy per flip-flop bit per cycle: its clock pin and its share of the tree",
          into(plan, &Floorplan::clock_energy_pj)),
  };
}

Apply throughputApply() {
  return [](Building& b, const Value& v) {
    auto& rates = b.acc.array.macs_per_cycle;
    auto& mixed = b.acc.array.mixed_macs_per_cycle;
    rates.clear();
    mixed.clear();
    for (const auto& [name, rate] : v.pairs) {
      const size_t star = name.find('*');  // the reader checked both names
      if (star == std::string::npos) {
        rates.emplace_back(*parseDType(name), rate);
      } else {
        mixed.push_back({*parseDType(name.substr(0, star)), *parseDType(name.substr(star + 1)), rate});
      }
    }
  };
}

// A shared pool, or a scratch pad per tensor (tensors left out of the map get none).
Apply registerFileApply() {
  return [](Building& b, const Value& v) {
    ComputeArray& a = b.acc.array;
    a.rf_partitioned = !v.pairs.empty();
    a.rf_input_bytes = a.rf_weight_bytes = a.rf_output_bytes = 0;
    if (!a.rf_partitioned) {
      a.pe_register_file_bytes = checkedInt(v.bytes);
      return;
    }
    for (const auto& [tensor, bytes] : v.pairs) {
      int& slot = tensor == "inputs" ? a.rf_input_bytes
                  : tensor == "weights" ? a.rf_weight_bytes
                                        : a.rf_output_bytes;
      slot = checkedInt(static_cast<uint64_t>(bytes));
    }
    a.pe_register_file_bytes = a.rf_input_bytes + a.rf_weight_bytes + a.rf_output_bytes;
  };
}

Apply registersApply() {
  return [](Building& b, const Value& v) {
    ComputeArray& a = b.acc.array;
    a.reg_input_bytes = a.reg_weight_bytes = a.reg_output_bytes = 0;
    if (v.pairs.empty()) {  // one size: a register of that size for each tensor
      a.reg_input_bytes = a.reg_weight_bytes = a.reg_output_bytes = checkedInt(v.bytes);
      return;
    }
    for (const auto& [tensor, bytes] : v.pairs) {
      int& slot = tensor == "inputs" ? a.reg_input_bytes
                  : tensor == "weights" ? a.reg_weight_bytes
                                        : a.reg_output_bytes;
      slot = checkedInt(static_cast<uint64_t>(bytes));
    }
  };
}

std::vector<ParamSpec> arrayParams() {
  return {
      among({"systolic", "spatial"}, opt("kind", T::Choice, "systolic",
                                         "systolic (operands flow PE to PE) or spatial "
                                         "(PEs fed by the NoC)",
                                         [](Building& b, const Value& v) {
                                           b.acc.array.kind = v.text == "spatial"
                                                                  ? ArrayKind::Spatial
                                                                  : ArrayKind::Systolic;
                                         })),
      pos(req("rows", T::Integer, "PE rows", into(arr, &ComputeArray::rows))),
      pos(req("cols", T::Integer, "PE columns", into(arr, &ComputeArray::cols))),
      opt("input_dtype", T::DTypeName, "int8", "input (activation) element type",
          into(arr, &ComputeArray::input_dtype)),
      opt("weight_dtype", T::DTypeName, "int8", "weight element type",
          into(arr, &ComputeArray::weight_dtype)),
      opt("accum_dtype", T::DTypeName, "int32", "accumulation and output type",
          into(arr, &ComputeArray::accum_dtype)),
      pos(among(dataflowNames(), req("dataflows", T::NameList,
                                     "dataflows it can run; systolic "
                                     "arrays support ws, os, is",
                                     into(arr, &ComputeArray::dataflows)))),
      pos(der("throughput", T::DTypeRates, "{<input_dtype>: 1}",
              "MACs per PE per cycle for each dtype it runs (e.g. {int8: 1, fp16: 0.5})",
              throughputApply())),
      opt("weight_double_buffered", T::Boolean, "true",
          "WS: the next weights preload while the current ones compute",
          into(arr, &ComputeArray::weight_double_buffered)),
      among(epilogueOpNames(), opt("epilogue_ops", T::NameList, "[]",
                                   "ops applied on the accumulator path, never leaving the array",
                                   into(arr, &ComputeArray::epilogue_ops))),
      der("epilogue_energy", T::Energy, "each op's unit at accum_dtype (docs/technology.md)",
          "energy per element of every epilogue op", into(arr, &ComputeArray::epilogue_energy_pj)),
      der("epilogue_area", T::Area, "cols lanes x a unit per epilogue op / utilization",
          "area of ONE array's epilogue", into(arr, &ComputeArray::epilogue_area_mm2)),
      der("epilogue_leakage", T::Power, "the technology's logic leakage",
          "leakage of ONE array's epilogue", into(arr, &ComputeArray::epilogue_leakage_mw)),
      among(tensorNames(),
            opt("register_file", T::TensorBytes, "0 B",
                "register file per PE: one size all tensors share, or a scratch pad per tensor "
                "({inputs: 24 B, weights: 448 B, outputs: 48 B}); 0 = none (systolic arrays "
                "keep one element in a pipeline register)",
                registerFileApply())),
      among(tensorNames(),
            opt("register_file_sram", T::NameList, "[]",
                "the scratch pads built as an SRAM macro rather than flip-flops ([weights]: "
                "Eyeriss's filter pad); their area and leakage are the macro's",
                into(arr, &ComputeArray::rf_sram))),
      der("register_file_energy", T::EnergyPerByte,
          "each pad at its own size: flip-flops growing into the technology's register file "
          "by 512 B, a register_file_sram pad its macro's (pipeline flip-flops without one)",
          "energy per byte read or written in a PE register file (given: every pad's)",
          into(arr, &ComputeArray::rf_energy_pj_per_byte)),
      among(tensorNames(),
            opt("registers", T::TensorBytes, "0 B",
                "a second level inside each PE, below the register file: registers per tensor "
                "({weights: 2 B}); 0 = none",
                registersApply())),
      der("register_energy", T::EnergyPerByte, "the technology's flip-flop per bit x 8",
          "energy per byte read or written in a PE's registers",
          into(arr, &ComputeArray::reg_energy_pj_per_byte)),
      der("mac_energy", T::Energy, "the technology's MAC of input_dtype", "energy of one MAC",
          into(arr, &ComputeArray::mac_energy_pj)),
      der("mac_area", T::Area, "the technology's MAC of input_dtype", "area of one MAC unit",
          [](Building& b, const Value& v) { b.acc.array.mac_area_um2 = v.number * 1e6; }),
      der("area", T::Area, "rows x cols x (mac_area + pipeline flip-flops) + a systolic array's skew registers",
          "area of ONE array's PEs without their register files",
          into(arr, &ComputeArray::area_mm2)),
      der("leakage", T::Power, "the technology's logic and flip-flop leakage",
          "leakage of ONE array's PEs without their register files",
          into(arr, &ComputeArray::leakage_mw)),
      der("register_file_drain_energy", T::EnergyPerByte, "register_file_energy",
          "energy per byte of reading a partial sum in a PE to send it up; 0 = free, as Timeloop "
          "counts it",
          into(arr, &ComputeArray::rf_drain_pj_per_byte)),
      der("register_file_area", T::Area, "rows x cols x (register_file + registers) x area per bit",
          "area of ONE array's register files and registers",
          into(arr, &ComputeArray::register_file_area_mm2)),
      der("register_file_leakage", T::Power, "rows x cols x bits x leakage per bit",
          "leakage of ONE array's register files and registers",
          into(arr, &ComputeArray::register_file_leakage_mw)),
      der("pipeline_latency", T::Time, "rows + cols - 2 (operand skew)",
          "fill/drain cycles per array tile", into(arr, &ComputeArray::pipeline_latency)),
  };
}

std::vector<ParamSpec> nocParams() {
  return {
      among({"systolic", "bus", "mesh"},
            opt("kind", T::Choice, "systolic",
                "how operands reach the PEs: neighbour links, row/column buses (a multicast is "
                "one transfer) or a mesh (one hop per PE reached)",
                into(noc, &Noc::kind))),
      opt("bandwidth", T::Bandwidth, "0 B/cycle",
          "bytes per cycle from the buffers to the "
          "array; 0 = unlimited",
          into(noc, &Noc::bandwidth)),
      opt("multicast", T::Boolean, "false", "one read can feed many PEs",
          into(noc, &Noc::multicast)),
      opt("reduction", T::Boolean, "false", "partial sums can be added in the network",
          into(noc, &Noc::reduction)),
      der("energy", T::EnergyPerByte,
          "a wire one PE pitch long + a flip-flop per hop (mesh, systolic); a bus: the array's width",
          "energy per byte per hop (per transfer on a bus); partial sums pay a hop per PE",
          into(noc, &Noc::energy_pj_per_byte)),
      der("area", T::Area, "a mesh's routers: 5 ports x 2 flits of buffer + a 5 x 5 crossbar, per node",
          "silicon area of one core's network (systolic links and buses: 0, wires over the cells)",
          into(noc, &Noc::area_mm2)),
      der("leakage", T::Power, "the technology's logic and flip-flop leakage", "leakage of one core's network",
          into(noc, &Noc::leakage_mw)),
  };
}

std::vector<ParamSpec> sfuParams() {
  return {
      pos(among(sfuOpNames(), req("ops", T::NameList, "ops it runs (others go to the host)",
                                  into(sfu, &Sfu::ops)))),
      pos(opt("lanes", T::Integer, "16", "elements per vector pass", into(sfu, &Sfu::lanes))),
      among({"integer", "float"},
            opt("arithmetic", T::Choice, "integer", "integer (I-BERT style) or floating point",
                [](Building& b, const Value& v) { b.acc.sfu->integer = v.text == "integer"; })),
      pos(opt("cycles_per_vector", T::Real, "1", "cycles per pass over `lanes` elements",
              into(sfu, &Sfu::cycles_per_vector))),
      der("energy", T::Energy, "the technology's add (int or fp)", "energy per element per pass",
          into(sfu, &Sfu::energy_pj_per_element)),
      der("area", T::Area, "lanes x the technology's MAC (int16 or fp32)", "silicon area",
          into(sfu, &Sfu::area_mm2)),
      der("leakage", T::Power, "the technology's logic leakage x area", "leakage power",
          into(sfu, &Sfu::leakage_mw)),
  };
}

std::vector<ParamSpec> hostParams() {
  return {
      pos(opt("clock", T::Frequency, "2 GHz", "host clock", into(host, &Host::clock_hz))),
      pos(opt("flops", T::FlopRate, "32 GFLOP/s", "sustained FLOP/s for host-run matmuls",
              into(host, &Host::flops))),
      pos(opt("memory_bandwidth", T::ByteRate, "25.6 GB/s",
              "host memory bandwidth (B/cycle "
              "counts host cycles)",
              into(host, &Host::mem_bandwidth_bytes_per_s))),
      opt("offload_overhead", T::Time, "1 us", "accelerator cycles per host call (sync, launch)",
          into(host, &Host::offload_overhead)),
      opt("step_overhead", T::Time, "0 cycles",
          "an LLM service's host time per iteration while the device waits (scheduling, "
          "preparing inputs); tessel serve's --step-overhead",
          into(host, &Host::step_overhead)),
      opt("sequence_overhead", T::Time, "0 cycles",
          "an LLM service's host time per iteration per sequence in the batch (sampling, "
          "detokenizing); tessel serve's --sequence-overhead",
          into(host, &Host::sequence_overhead)),
      // Horowitz (ISSCC 2014), 45 nm: ~70 pJ to fetch, decode and issue an instruction, 3.7 pJ
      // per FP32 multiply and 0.9 pJ per add; an 8-wide FMA does 16 FLOPs: (70 + 8 x 4.6) / 16.
      opt("energy_per_flop", T::Energy, "6.7 pJ",
          "core energy per FLOP of host-run ops (assumed: Horowitz 2014, 8-wide FMA)",
          into(host, &Host::energy_pj_per_flop)),
      der("energy_per_byte", T::EnergyPerByte, "dram.read_energy (host memory is the DRAM)",
          "energy per byte the host reads or writes in memory",
          into(host, &Host::energy_pj_per_byte)),
      among(sfuOpNames(), opt("cycles_per_element", T::OpCosts, hostCostDefaults(),
                              "host cycles per element of each op; entries merge over the default",
                              costsApply())),
  };
}

std::vector<ParamSpec> linkParams() {
  return {
      pos(opt("bandwidth", T::Bandwidth, "16 B/cycle",
              "bytes per accelerator cycle between host and accelerator memory",
              into(host, &Host::link_bandwidth))),
      upTo(64, opt("lanes", T::Integer, "0",
                   "serial lanes of the link on the accelerator die (PCIe); 0 = an on-chip port",
                   into(host, &Host::link_lanes))),
      opt("lane_area", T::Area, "0.5 mm2",
          "one lane's SerDes and PCS (assumed: between a 28 nm PCIe Gen4 transmitter, 0.23 mm2, and "
          "a 10 nm Gen5 lane, 0.33 mm2, both with their receiver and clocking)",
          into(host, &Host::link_lane_area_mm2)),
      opt("latency", T::Time, "500 ns",
          "accelerator cycles per transfer (each direction a host call moves bytes in)",
          into(host, &Host::link_latency)),
  };
}

std::vector<ParamSpec> coresParams() {
  return {
      upTo(64, pos(opt("count", T::Integer, "1",
                       "identical cores sharing the DRAM (and the L2); every other section "
                       "describes one core",
                       into(cores, &Cores::count)))),
      opt("fused_sync", T::Time, "0 cycles",
          "cycles a fused device (every core on one op) spends per op keeping its cores in step",
          into(cores, &Cores::fused_sync_cycles)),
  };
}

std::vector<ParamSpec> technologyParams() {
  auto t = [](Building& b) -> Technology& { return b.acc.technology; };
  return {
      among(tech::shippedNodes(),
            opt("node", T::Choice, "45nm",
                "process node: a shipped table of energies and areas (docs/technology.md); "
                "default assumed",
                [t](Building& b, const Value& v) { t(b).node = v.text; })),
      opt("table", T::Text, "\"\"",
          "your own table file in the shipped format (relative to this file); replaces node",
          [t](Building& b, const Value& v) { t(b).table = v.text; }),
      der("voltage", T::Voltage, "the node's nominal voltage",
          "supply: dynamic energy scales with V^2, leakage with V",
          [t](Building& b, const Value& v) { t(b).voltage = v.number; }),
  };
}

std::vector<ParamSpec> layoutParams() {
  return {
      pos(opt("channel_align", T::Integer, "1",
              "a graph input's innermost (channel) axis is padded to a multiple of this",
              into(layout, &Layout::channel_align))),
      opt("device_lowering_align", T::Integer, "0",
          "the accelerator transposes and pads an input itself when its innermost axis is a "
          "multiple of this, else the host does; 0 = never",
          into(layout, &Layout::device_lowering_align)),
  };
}

SectionSpec levelSection(const std::string& key, LevelKind kind, bool required,
                         const std::string& description, std::vector<ParamSpec> params) {
  return {key, required, description, std::move(params), [key, kind](Building& b) {
            StorageLevel level;
            level.name = key;
            level.kind = kind;
            b.acc.levels.push_back(level);
          }};
}

std::vector<SectionSpec> makeSchema() {
  std::vector<SectionSpec> s = {
      {"", true, "the accelerator", topParams(), nullptr},
      levelSection("dram", LevelKind::DRAM, true, "off-chip memory, the outermost level",
                   dramParams()),
      levelSection("l2", LevelKind::L2, false,
                   "shared on-chip memory between DRAM and the local memories", l2Params()),
      levelSection("scratchpad", LevelKind::Scratchpad, false,
                   "local SRAM for inputs and weights (Gemmini-like; needs accumulator)",
                   scratchpadParams()),
      levelSection("accumulator", LevelKind::Accumulator, false,
                   "local SRAM that accumulates outputs (Gemmini-like; needs scratchpad)",
                   accumulatorParams()),
      levelSection("global_buffer", LevelKind::GlobalBuffer, false,
                   "one local SRAM for all tensors (Eyeriss-like), instead of scratchpad + "
                   "accumulator",
                   globalBufferParams()),
      levelSection("cluster_buffer", LevelKind::ClusterBuffer, false,
                   "a buffer per fan-out instance, between the shared local memory and the "
                   "array (Simba's PE buffers, a TPU MXU's accumulators)",
                   clusterBufferParams()),
      {"dma", false, "the engine moving tiles between DRAM/L2 and the local memories", dmaParams(),
       nullptr},
      {"controller", false,
       "the command queues between the host and the blocks (the SystemC engine's issue model)",
       controllerParams(), nullptr},
      {"array", true, "the PE array", arrayParams(), nullptr},
      {"noc", false, "the network from the local memories to the PEs", nocParams(), nullptr},
      {"sfu", false, "special-function unit for nonlinear ops; absent = none, the host runs them",
       sfuParams(), [](Building& b) { b.acc.sfu.emplace(); }},
      {"host", false, "the host CPU that runs what the accelerator cannot", hostParams(), nullptr},
      {"host.link", false, "the path between host and accelerator memory", linkParams(), nullptr},
      {"cores", false,
       "identical cores sharing the DRAM and the L2; run apart, or fused as one wider device",
       coresParams(), nullptr},
      {"layout", false, "how the accelerator wants graph inputs laid out", layoutParams(), nullptr},
      {"technology", false, "the process: energies, areas and leakage left out derive from it",
       technologyParams(), nullptr},
      {"floorplan", false, "what the die adds around the blocks: placement, SRAM macros, clock tree",
       floorplanParams(), nullptr},
  };
  // Each level's children follow it: its fan-out and its per-tensor energies.
  for (size_t i = s.size(); i-- > 1;) {
    const std::string& key = s[i].path;
    const bool level = key == "dram" || key == "l2" || key == "scratchpad" ||
                       key == "accumulator" || key == "global_buffer" || key == "cluster_buffer";
    if (!level) continue;
    const bool fanout = key == "scratchpad" || key == "global_buffer";
    auto children = levelChildren(key, fanout);
    s.insert(s.begin() + static_cast<std::ptrdiff_t>(i) + 1, children.begin(), children.end());
  }
  const std::vector<SectionSpec> sparsity = sparsitySections();
  s.insert(s.end(), sparsity.begin(), sparsity.end());
  return s;
}

}  // namespace

const std::vector<SectionSpec>& schema() {
  static const std::vector<SectionSpec> sections = makeSchema();
  return sections;
}

}  // namespace tessel::arch
