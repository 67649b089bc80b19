#include "models/scalesim/csv_rows.h"

namespace tessel::models::scalesim {
namespace {

bool blank(char c) { return c == ' ' || c == '\t'; }

// Length of the blank (space, tab, or UTF-8 U+00A0) starting / ending at `i` of `s`, 0 if none.
size_t blankAt(const std::string& s, size_t b, size_t e) {
  if (b < e && blank(s[b])) return 1;
  if (b + 1 < e && s[b] == '\xC2' && s[b + 1] == '\xA0') return 2;
  return 0;
}
size_t blankBefore(const std::string& s, size_t b, size_t e) {
  if (e > b && blank(s[e - 1])) return 1;
  if (e >= b + 2 && s[e - 2] == '\xC2' && s[e - 1] == '\xA0') return 2;
  return 0;
}

// One line (without its '\n') -> its fields.
std::vector<Field> splitLine(const std::string& line, char separator) {
  std::vector<Field> fields;
  size_t start = 0;
  while (true) {
    const size_t sep = line.find(separator, start);
    const size_t end = sep == std::string::npos ? line.size() : sep;
    size_t b = start, e = end;
    while (size_t n = blankAt(line, b, e)) b += n;
    while (size_t n = blankBefore(line, b, e)) e -= n;
    if (b < e && line[b] == '#') break;  // a comment ends the row
    fields.push_back({line.substr(b, e - b), static_cast<int>(b) + 1});
    if (sep == std::string::npos) break;
    start = sep + 1;
  }
  if (fields.size() > 1 && fields.back().text.empty()) fields.pop_back();
  return fields;
}

bool allEmpty(const std::vector<Field>& fields) {
  for (const Field& f : fields) {
    if (!f.text.empty()) return false;
  }
  return true;
}

size_t bomLength(const std::string& text) {
  return text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
}

}  // namespace

char separatorOf(const std::string& text) {
  size_t start = bomLength(text);
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    return line.find('\t') != std::string::npos && line.find(',') == std::string::npos ? '\t'
                                                                                        : ',';
  }
  return ',';
}

std::vector<Row> splitRows(const std::string& text, char separator) {
  std::vector<Row> rows;
  size_t start = bomLength(text);
  int line_no = 0;
  while (start < text.size()) {
    ++line_no;
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    start = end + 1;
    std::vector<Field> fields = splitLine(line, separator);
    if (allEmpty(fields)) continue;
    rows.push_back({line_no, std::move(fields)});
  }
  return rows;
}

}  // namespace tessel::models::scalesim
