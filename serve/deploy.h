// A deployed inference is more than the model's graph: the host quantizes the request's input
// and lowers it to the accelerator's layout (transpose, pad to its alignment), and afterwards
// unlowers (slice, transpose back) and dequantizes the outputs. withDeploymentOps adds those ops
// to the graph, so the same planner places them and the same engines time them; the layout rule
// of the accelerator (arch::Layout) decides which lowering the accelerator runs itself.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "arch/accelerator.h"
#include "models/graph.h"

namespace tessel::serve {

enum class InputDType : uint8_t { Float32, UInt8, Int8 };
enum class OutputDType : uint8_t { Float32, Int8 };
enum class InputLayout : uint8_t { Nchw, Nhwc };

struct DeployOptions {
  InputDType input_dtype = InputDType::Float32;
  OutputDType output_dtype = OutputDType::Float32;
  InputLayout layout = InputLayout::Nchw;
  // Options the user gave explicitly: one that applies to none of the graph's inputs (the
  // --layout of a token-id input) is an error instead of being ignored.
  bool input_dtype_given = false;
  bool layout_given = false;
};

// "float32" | "uint8" | "int8", "float32" | "int8", "nchw" | "nhwc"; ConfigError otherwise.
InputDType parseInputDType(const std::string& s);
OutputDType parseOutputDType(const std::string& s);
InputLayout parseInputLayout(const std::string& s);
std::string nameOf(InputDType t);
std::string nameOf(OutputDType t);
std::string nameOf(InputLayout l);

// The graph with its request's host ops. A request carries the inputs the graph reads up to its
// first matmul or conv (an image; token ids); later inputs (a KV cache) are state that stays in
// the accelerator's memory. For each request input in the accelerator's integer dtype:
//   Quantize (float32 -> int8; from uint8 a zero-point shift; int8 needs none), on the host;
//   Transpose NCHW -> NHWC for a 4-d input given as nchw;
//   Pad of the innermost axis to layout.channel_align;
// the lowering ops run on the accelerator when the input's innermost axis (as the user gives it)
// is a multiple of layout.device_lowering_align, else on the host. Integer inputs in another
// dtype (int32 token ids) are indices and get none. Each graph output comes out padded to the
// alignment and gets Slice (and Transpose back for a 4-d nchw request) under the same rule, then
// a Dequantize on the host for float32 output. ConfigError for an option that applies to no
// input (explicitly given), or a graph whose integer dtype cannot hold uint8/int8 data.
models::Graph withDeploymentOps(const models::Graph& graph, const arch::Accelerator& acc,
                                const DeployOptions& options);

// Where an op of the deployed graph belongs in a request's life: before the accelerator job,
// in it, or after it. Pre and post are the host ops before the first and after the last op the
// accelerator runs (by placement in `on_accelerator`, indexed by op id).
enum class Stage : uint8_t { Pre, Job, Post };
std::vector<Stage> stagesOf(const std::vector<bool>& on_accelerator);

}  // namespace tessel::serve
