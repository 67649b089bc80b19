// SCALE-Sim v2's closed-form timing of one conv/GEMM layer on an R x C systolic array
// (docs/scalesim.md, "Reproducing SCALE-Sim's cycles", derives every formula). Plain C++.
//
// The layer is a GEMM: M = ofmap pixels (E_h*E_w), N = filters, K = R_f*S_f*C. Each dataflow
// fixes which operand dimension lies along the array's rows and columns and which streams in
// time (the operand matrices of SCALE-Sim's systolic_compute_{os,ws,is}.py):
//   os: Sr = M, Sc = N, T = K      ws: Sr = K, Sc = N, T = M      is: Sr = K, Sc = M, T = N
// Folds: ceil(Sr/R) x ceil(Sc/C), column folds outer. With the default knobs a fold costs
//   os: T + R + C - 2      ws, is: T + 2R + C - 2   (R weight/input preload lines)
// cycles, folds run one after another, and Total Cycles = folds x fold - 1 (SCALE-Sim reports
// the cycle of its last output line, counted from 0).
#pragma once

#include <cstdint>
#include <string_view>

#include "sim/scalesim/knobs.h"

namespace tessel::sim::scalesim {

enum class Flow : uint8_t { Os, Ws, Is };

// "os" | "ws" | "is"; ConfigError naming --dataflow for any other (SCALE-Sim has these three).
Flow flowOf(std::string_view dataflow_name);

struct OperandShape {
  int64_t sr = 0, sc = 0, t = 0;
};
OperandShape operandShape(Flow flow, int64_t m, int64_t n, int64_t k);

struct FoldTiming {
  int64_t row_folds = 0, col_folds = 0;
  int64_t fold_cycles = 0;     // one fold alone
  int64_t total_cycles = 0;    // SCALE-Sim's "Total Cycles" (stalls excluded: CALC mode)
  double mapping_efficiency = 0;  // mean over folds of used PEs / PEs, in [0, 1]
  double compute_utilization = 0; // mean over folds of MACs / (PEs x that fold's cycles)
  // SRAM accesses SCALE-Sim counts (words): the BANDWIDTH_REPORT's numerators.
  int64_t ifmap_sram_reads = 0, filter_sram_reads = 0, ofmap_sram_writes = 0;
};

// One layer (a single GEMM, batch 1) on a rows x cols array.
FoldTiming foldTiming(Flow flow, int64_t m, int64_t n, int64_t k, int64_t rows, int64_t cols,
                      const Knobs& knobs);

}  // namespace tessel::sim::scalesim
