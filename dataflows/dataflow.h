// A dataflow is data, not code: which GEMM dims map to the array's rows and columns, which one
// streams through time, and which operand stays in the PEs. configs/dataflows/*.yaml define
// them; one engine interprets them all.
#pragma once

#include <string>
#include <vector>

#include "arch/accelerator.h"
#include "dataflows/nest/constraints.h"
#include "dataflows/problem.h"

namespace tessel::yaml {
class Document;
}

namespace tessel::dataflows {

struct Dataflow {
  std::string name;  // "ws", "os", "is", "rs", "nlr", ...
  std::string description;
  // The GEMM view (stationary/spatial/stream keys), which the gemmini-auto mapper and the tile
  // model read. Row-stationary and no-local-reuse have none: they exist only as loop nests.
  bool gemm_view = true;
  Operand stationary = Operand::Weight;  // operand held in the PEs while the stream passes
  Dim row_dim = Dim::K;                  // GEMM dim unrolled over array rows
  Dim col_dim = Dim::N;                  // GEMM dim unrolled over array columns
  Dim stream_dim = Dim::M;               // GEMM dim that flows through time
  // The loop-nest constraints every problem (GEMM or convolution) is mapped under: the `nest:`
  // section, or derived from the GEMM view (k -> C,R,S; n -> K; m -> N,P,Q).
  nest::Constraints nest;
  std::vector<std::string> array_kinds;  // array kinds that can run it ("systolic", "spatial")
  std::string source;                    // file it came from
};

// Parses a dataflow YAML document; errors are ConfigErrors naming `source_name`.
Dataflow parseDataflow(const std::string& yaml, const std::string& source_name);
Dataflow parseDataflow(const yaml::Document& doc, const std::string& source_name);
// A shipped dataflow by name (configs/dataflows/NAME.yaml, embedded at build time), or a path to
// a user's YAML file. Unknown names throw ConfigError with a suggestion.
Dataflow loadDataflow(const std::string& name_or_path);
// Names of the shipped dataflows.
std::vector<std::string> builtinDataflows();

// ConfigError (at --dataflow) unless `acc` can run `df`: its array kind is in df's `arrays:`
// list, and a systolic array lists (in array.dataflows) a dataflow of the same shape: the same
// stationary operand and the same dims on rows, columns and stream. A dataflow given as a file is
// held to exactly the same rule as one given by name.
void checkRunnable(const Dataflow& df, const arch::Accelerator& acc);
// The same check as a reason ("" when runnable), for reports that list what cannot run.
std::string whyNotRunnable(const Dataflow& df, const arch::Accelerator& acc);

}  // namespace tessel::dataflows
