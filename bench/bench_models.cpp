// Building workloads from model files. Targets (issue): a multi-GB ONNX model imports in well
// under a second (weights are never read); a Hugging Face config builds in milliseconds.
//
// BM_OnnxImportLlamaShaped writes, once, an ONNX decoder of Llama-3.1-8B's shapes (32 blocks of
// RMSNorm spelled out in primitives, q/k/v/o projections, SwiGLU, residuals) whose 15 GiB of FP16
// weights are external-data references to a file that does not exist, then times importing it.
#include <benchmark/benchmark.h>
#include <onnx/onnx_pb.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "models/families/hf_config.h"
#include "models/onnx/import.h"
#include "models/workload.h"

namespace {

using namespace tessel;

constexpr int64_t kLayers = 32, kD = 4096, kKv = 1024, kFfn = 14336, kVocab = 128256;

struct Writer {
  ::onnx::GraphProto& g;
  int next = 0;
  std::string fresh() { return "t" + std::to_string(next++); }

  void weight(const std::string& name, std::vector<int64_t> dims) {
    ::onnx::TensorProto* t = g.add_initializer();
    t->set_name(name);
    t->set_data_type(::onnx::TensorProto::FLOAT16);
    for (int64_t d : dims) t->add_dims(d);
    t->set_data_location(::onnx::TensorProto::EXTERNAL);
    auto* e = t->add_external_data();
    e->set_key("location");
    e->set_value("weights.bin");  // never created: the importer must not open it
  }
  std::string node(const std::string& op, std::vector<std::string> in) {
    ::onnx::NodeProto* n = g.add_node();
    n->set_op_type(op);
    n->set_name(op + "_" + std::to_string(next));
    for (const auto& i : in) n->add_input(i);
    const std::string out = fresh();
    n->add_output(out);
    return out;
  }
  std::string scalar(float v) {
    ::onnx::TensorProto* t = g.add_initializer();
    const std::string name = fresh();
    t->set_name(name);
    t->set_data_type(::onnx::TensorProto::FLOAT);
    t->add_float_data(v);
    return name;
  }
  std::string linear(const std::string& x, const std::string& name, int64_t k, int64_t n) {
    weight(name, {k, n});
    return node("MatMul", {x, name});
  }
  std::string rmsNorm(const std::string& x, const std::string& name) {
    weight(name, {kD});
    const std::string sq = node("Mul", {x, x});
    ::onnx::NodeProto* mean = g.add_node();
    mean->set_op_type("ReduceMean");
    mean->set_name(name + ".mean");
    mean->add_input(sq);
    const std::string m = fresh();
    mean->add_output(m);
    auto* axes = mean->add_attribute();
    axes->set_name("axes");
    axes->set_type(::onnx::AttributeProto::INTS);
    axes->add_ints(-1);
    const std::string r = node("Sqrt", {node("Add", {m, scalar(1e-5f)})});
    return node("Mul", {node("Div", {x, r}), name});
  }
};

std::string writeLlamaShaped() {
  ::onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  Writer w{*m.mutable_graph()};
  ::onnx::ValueInfoProto* in = w.g.add_input();
  in->set_name("x");
  auto* tt = in->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(::onnx::TensorProto::FLOAT);
  for (int64_t d : {int64_t{1}, int64_t{2048}, kD}) tt->mutable_shape()->add_dim()->set_dim_value(d);
  std::string x = "x";
  for (int64_t l = 0; l < kLayers; ++l) {
    const std::string p = "layers." + std::to_string(l);
    const std::string h = w.rmsNorm(x, p + ".input_layernorm.weight");
    const std::string q = w.linear(h, p + ".q_proj.weight", kD, kD);
    const std::string k = w.linear(h, p + ".k_proj.weight", kD, kKv);
    const std::string v = w.linear(h, p + ".v_proj.weight", kD, kKv);
    w.node("Concat", {k, v});  // keeps k and v alive in the graph
    auto* axis = w.g.mutable_node(w.g.node_size() - 1)->add_attribute();
    axis->set_name("axis");
    axis->set_type(::onnx::AttributeProto::INT);
    axis->set_i(-1);
    x = w.node("Add", {x, w.linear(q, p + ".o_proj.weight", kD, kD)});
    const std::string h2 = w.rmsNorm(x, p + ".post_attention_layernorm.weight");
    const std::string up = w.linear(h2, p + ".up_proj.weight", kD, kFfn);
    const std::string gate = w.linear(h2, p + ".gate_proj.weight", kD, kFfn);
    const std::string act = w.node("Mul", {gate, w.node("Sigmoid", {gate})});
    x = w.node("Add", {x, w.linear(w.node("Mul", {act, up}), p + ".down_proj.weight", kFfn, kD)});
  }
  const std::string logits = w.linear(w.rmsNorm(x, "norm.weight"), "lm_head.weight", kD, kVocab);
  w.g.add_output()->set_name(logits);
  const std::string path = "/tmp/tessel_bench_llama_shaped.onnx";
  std::ofstream out(path, std::ios::binary);
  m.SerializeToOstream(&out);
  return path;
}

void BM_OnnxImportLlamaShaped(benchmark::State& state) {
  static const std::string path = writeLlamaShaped();
  models::Graph g;
  for (auto _ : state) {
    g = models::onnx::importFile(path, models::WorkloadOptions{});
    benchmark::DoNotOptimize(g.ops().size());
  }
  state.counters["ops"] = static_cast<double>(g.ops().size());
  state.counters["weight_GiB"] = static_cast<double>(g.parameterCount()) * 2 / (1u << 30);
}

void BM_OnnxImportVitB16Fixture(benchmark::State& state) {
  const std::string path = std::string(TESSEL_SOURCE_DIR) + "/tests/models/data/onnx/vit_b_16.onnx";
  for (auto _ : state) benchmark::DoNotOptimize(models::build(path, {}).ops().size());
}

void BM_HfPresetLlama31_8bPrefill2048(benchmark::State& state) {
  models::WorkloadOptions o;
  o.seq = 2048;
  for (auto _ : state) benchmark::DoNotOptimize(models::build("llama-3.1-8b", o).ops().size());
}

void BM_HfPresetMixtralDecode(benchmark::State& state) {
  models::WorkloadOptions o;
  o.seq = 8192;
  o.phase = "decode";
  for (auto _ : state) benchmark::DoNotOptimize(models::build("mixtral-8x7b", o).ops().size());
}

}  // namespace

BENCHMARK(BM_OnnxImportLlamaShaped)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OnnxImportVitB16Fixture)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HfPresetLlama31_8bPrefill2048)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HfPresetMixtralDecode)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
