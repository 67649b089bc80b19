#include "models/onnx/weights.h"

#include <cmath>
#include <filesystem>
#include <set>

#include "models/onnx/tensor_data.h"
#include "util/error.h"

namespace tessel::models::onnx {
namespace {

class OnnxWeights : public WeightSource {
 public:
  OnnxWeights(std::shared_ptr<const OnnxModel> model, std::map<std::string, DerivedWeight> derived)
      : model_(std::move(model)), reader_(model_->path), derived_(std::move(derived)) {
    for (const Initializer& i : model_->initializers) inits_[i.name] = &i;
  }

  std::optional<std::vector<float>> values(const std::string& name) const override {
    auto d = derived_.find(name);
    if (d != derived_.end()) return fromDerived(d->second);
    return source(name);
  }

 private:
  // A source operand (an initializer), or nullopt when the model has no values for it: none by
  // that name, or external data whose file is absent (a model shared without its weights; the
  // importer warned, and the executor synthesizes them).
  std::optional<std::vector<float>> source(const std::string& name) const {
    auto it = inits_.find(name);
    if (it == inits_.end()) return std::nullopt;
    if (it->second->external && !externalDataPresent(model_->path, *it->second))
      return std::nullopt;
    return reader_.values(*it->second);
  }

  std::optional<std::vector<float>> fromDerived(const DerivedWeight& d) const {
    if (d.kind == DerivedWeight::Kind::Values) return d.values;
    if (d.kind == DerivedWeight::Kind::Fill)
      return std::vector<float>(static_cast<size_t>(d.count),
                                d.values.empty() ? 0.0f : d.values[0]);
    std::vector<std::vector<float>> in;
    for (const std::string& s : d.sources) {
      auto v = source(s);
      if (!v) return std::nullopt;
      in.push_back(std::move(*v));
    }
    if (d.kind == DerivedWeight::Kind::Scaled) {
      for (float& x : in.at(0)) x *= d.factor;
      return in.at(0);
    }
    // BatchNorm: scale' = scale / sqrt(var + eps); shift' = bias - mean * scale'.
    const std::vector<float>& scale = in.at(0);
    const std::vector<float>& var = in.back();
    std::vector<float> out(scale.size());
    for (size_t c = 0; c < out.size() && c < var.size(); ++c) {
      const float s = scale[c] / std::sqrt(var[c] + d.eps);
      out[c] = d.kind == DerivedWeight::Kind::BnScale ? s : in.at(1).at(c) - in.at(2).at(c) * s;
    }
    return out;
  }

  std::shared_ptr<const OnnxModel> model_;
  InitializerReader reader_;
  std::map<std::string, DerivedWeight> derived_;
  std::map<std::string, const Initializer*> inits_;
};

}  // namespace

bool externalDataPresent(const std::string& model_path, const Initializer& init) {
  std::error_code ec;
  return std::filesystem::is_regular_file(externalDataPath(model_path, init), ec);
}

std::string missingWeightsWarning(const OnnxModel& model) {
  std::set<std::string> files;
  int64_t count = 0;
  for (const Initializer& i : model.initializers) {
    if (!i.external || externalDataPresent(model.path, i)) continue;
    files.insert(i.location);
    ++count;
  }
  if (files.empty()) return "";
  std::string list;
  for (const std::string& f : files) list += (list.empty() ? "'" : ", '") + f + "'";
  return "external data " + list + " not found next to the model: timing never reads weights; a " +
         "functional run (validate, precision) uses synthetic values for its " +
         std::to_string(count) + " initializer(s)";
}

std::shared_ptr<const WeightSource> makeWeightSource(std::shared_ptr<const OnnxModel> model,
                                                     const Context& ctx) {
  return std::make_shared<OnnxWeights>(std::move(model), ctx.derived);
}

}  // namespace tessel::models::onnx
