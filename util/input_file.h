// One rule for every file a command reads: a missing path, a directory, an unreadable file and
// one past the size a file of its kind can have each give a ConfigError naming the path and
// what was expected ("is a directory, expected a YAML file").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace tessel {

// Checks that `path` names a readable regular file (or a device such as /dev/stdin); `expected`
// completes "expected ..." in messages, e.g. "a YAML file", "an ONNX model".
void checkInputFile(const std::string& path, const std::string& expected);

// The whole file after checkInputFile; a file longer than max_bytes is an error, so reading
// /dev/zero stops at the bound instead of hanging.
std::string readInputFile(const std::string& path, const std::string& expected, size_t max_bytes);

// Lines in `text`: its '\n's, plus one for a last line without one. A reader that makes an
// item per line checks this count against util/budget.h before splitting the text.
int64_t lineCount(const std::string& text);

}  // namespace tessel
