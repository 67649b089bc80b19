// Decoding ONNX tensor bytes (little-endian raw data, external data files) into numbers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "models/onnx/onnx_model.h"

namespace tessel::models::onnx {

// fp16 or bf16 bits -> value.
double halfBits(ElemType type, uint16_t bits);
// `n` elements of `type` from little-endian bytes; false when the size does not match or the
// type is not numeric.
bool decodeRaw(ElemType type, const char* data, size_t size, int64_t n, std::vector<double>& out);
// Where each graph initializer's raw_data lies in a serialized ModelProto: name -> (offset,
// length), found by walking the protobuf wire format (model.graph.initializer[].raw_data).
// Anything unexpected ends the walk: the map then holds what was found so far.
std::map<std::string, std::pair<int64_t, int64_t>> rawDataRanges(const std::string& model);
// How many entries of GraphProto field `field` (1 node, 5 initializer) the serialized model's
// graph holds, counted on the wire before anything is parsed (a walk that stops as above).
int64_t graphEntries(const std::string& model, int field);
// An initializer's raw_data values, read from its byte range in the model file.
std::vector<float> readRaw(const std::string& model_path, const Initializer& init);
// The file an external-data initializer names, inside the model's folder (util/paths.h: an
// absolute location, or one leaving the folder by `..` or a symbolic link, is a ConfigError
// naming the model, the tensor and the location). Nothing else is ever opened for it.
std::string externalDataPath(const std::string& model_path, const Initializer& init);
// An external-data initializer's values, read from its file next to the model.
std::vector<float> readExternal(const std::string& model_path, const Initializer& init);

}  // namespace tessel::models::onnx
