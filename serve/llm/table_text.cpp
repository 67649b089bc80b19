#include "serve/llm/table_text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include "util/error.h"
#include "util/input_file.h"

namespace tessel::serve::llm {

std::string readTable(const std::string& path, const std::string& expected) {
  std::string text = readInputFile(path, expected, kMaxTableBytes);
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);  // a UTF-8 byte order mark
  return text;
}

bool isJsonl(const std::string& path, std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  return (path.size() >= 6 && path.compare(path.size() - 6, 6, ".jsonl") == 0) ||
         (first != std::string_view::npos && text[first] == '{');
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

std::vector<std::pair<int, std::string_view>> lines(std::string_view text) {
  std::vector<std::pair<int, std::string_view>> out;
  int number = 0;
  while (!text.empty()) {
    const size_t end = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!trim(line).empty()) out.emplace_back(number, line);
  }
  return out;
}

Fields csvFields(std::string_view line, int number, const std::string& path) {
  Fields fields;
  size_t i = 0;
  while (true) {
    const int column = static_cast<int>(i) + 1;
    std::string field;
    bool quoted = false;
    for (; i < line.size() && (quoted || line[i] != ','); ++i) {
      if (line[i] != '"') {
        field += line[i];
      } else if (quoted && i + 1 < line.size() && line[i + 1] == '"') {
        field += line[++i];  // "" inside quotes
      } else {
        quoted = !quoted;
      }
    }
    if (quoted) throw ConfigError({path, number, column, ""}, "a quote is not closed");
    fields.emplace_back(field, column);
    if (i == line.size()) return fields;
    ++i;  // the comma
  }
}

bool csvNumber(std::string_view text, double& value) {
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && ec == std::errc() && ptr == text.data() + text.size() &&
         std::isfinite(value);
}

int keyColumn(std::string_view line, const std::string& key) {
  const size_t at = line.find("\"" + key + "\"");
  return at == std::string_view::npos ? 0 : static_cast<int>(at) + 1;
}

std::string shortest(double v) {
  char buf[32];
  const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  return std::string(buf, end);
}

}  // namespace tessel::serve::llm
