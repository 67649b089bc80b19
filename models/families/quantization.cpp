// A quantized checkpoint's `quantization_config` -> the dtype its matmul weights are stored in.
//
// Read (Hugging Face transformers' quantizer configs):
//   gptq, awq:     bits 4 or 8, group_size G (-1 = one scale per output channel) -> int4/int8,
//                  or int<bits>_g<G>_fp16 (their scales are fp16). AWQ's older w_bit and
//                  q_group_size are read too. Zero points of asymmetric schemes (4 bits a group)
//                  are not counted: 0.4 % of int4_g128's bytes.
//   fp8:           fp8_e4m3 weights (per-tensor or per-block fp32 scales, not counted).
//   bitsandbytes:  load_in_8bit -> int8; load_in_4bit is NF4, which tessel does not model.
// Anything else is refused, naming the field.
#include <string>

#include "models/families/family.h"
#include "util/error.h"

namespace tessel::models::hf {
namespace {

std::optional<DType> integerWeights(const Fields& q) {
  const int64_t bits = q.has("bits") ? q.positive("bits") : q.positiveOr("w_bit", 4);
  if (bits != 4 && bits != 8) q.fail(q.has("bits") ? "bits" : "w_bit", "only 4- and 8-bit weights are modeled");
  const std::string group_key = q.has("group_size") ? "group_size" : "q_group_size";
  const double group = q.number(group_key, -1);
  q.accept("group_size");
  q.accept("q_group_size");
  for (const char* k : {"desc_act", "sym", "zero_point", "version", "damp_percent", "true_sequential",
                        "static_groups", "checkpoint_format", "model_name_or_path", "model_file_base_name",
                        "modules_to_not_convert", "backend", "use_exllama", "exllama_config", "tokenizer",
                        "dataset", "cache_block_outputs", "batch_size", "module_name_preceding_first_block",
                        "pad_token_id", "max_input_length", "use_cuda_fp16", "do_fuse", "fuse_max_seq_len"}) {
    q.accept(k);
  }
  const std::string element = bits == 4 ? "int4" : "int8";
  if (group < 0) return parseDType(element);
  if (group != static_cast<double>(static_cast<int64_t>(group)) || group < 1 || group > 4096) {
    q.fail(group_key, "expected -1 (per channel) or a group of 1..4096 weights");
  }
  return parseDType(element + "_g" + std::to_string(static_cast<int64_t>(group)) + "_fp16");
}

std::optional<DType> bitsandbytesWeights(const Fields& q) {
  for (const char* k : {"llm_int8_threshold", "llm_int8_skip_modules", "llm_int8_enable_fp32_cpu_offload",
                        "llm_int8_has_fp16_weight", "bnb_4bit_compute_dtype", "bnb_4bit_use_double_quant",
                        "bnb_4bit_quant_storage", "_load_in_4bit", "_load_in_8bit"}) {
    q.accept(k);
  }
  if (q.flag("load_in_4bit", false)) {
    q.fail("load_in_4bit", "NF4 weights are not modeled; use int4_g64_fp16 in a precision plan for the same bytes");
  }
  if (q.flag("load_in_8bit", false)) return DType::Int8;
  q.fail("load_in_8bit", "neither load_in_8bit nor load_in_4bit is set");
}

}  // namespace

std::optional<DType> checkpointWeights(const Fields& f) {
  f.accept("quantization_config");
  const std::optional<Fields> q = f.object("quantization_config");
  if (!q) return std::nullopt;
  const std::string method = q->text("quant_method", "");
  if (method == "gptq" || method == "awq") return integerWeights(*q);
  if (method == "bitsandbytes") return bitsandbytesWeights(*q);
  if (method == "fp8") {
    for (const char* k : {"activation_scheme", "weight_block_size", "modules_to_not_convert", "fmt"}) q->accept(k);
    return DType::FP8_E4M3;
  }
  q->fail("quant_method", "quant_method '" + method + "' is not modeled (read: gptq, awq, fp8, bitsandbytes 8-bit)");
}

}  // namespace tessel::models::hf
