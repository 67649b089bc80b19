// SCALE-Sim topology CSVs: header detection, field checks, one op per layer (topology.h).
#include "models/scalesim/topology.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <filesystem>
#include <map>
#include <utility>
#include <vector>

#include "models/builder.h"
#include "models/op_budget.h"
#include "models/scalesim/csv_rows.h"
#include "util/budget.h"
#include "util/error.h"
#include "util/input_file.h"

namespace tessel::models::scalesim {
namespace {

enum class Format { Conv, Gemm };

// Canonical column names (error paths), and the spellings SCALE-Sim's shipped files use.
const std::vector<std::string> kConvColumns = {"Layer name",   "IFMAP Height", "IFMAP Width",
                                               "Filter Height", "Filter Width", "Channels",
                                               "Num Filter",   "Strides"};
const std::vector<std::string> kGemmColumns = {"Layer", "M", "N", "K"};
const std::vector<std::vector<std::string>> kConvAliases = {
    {"layer name", "layer", "layer_name", "l", "name"},
    {"ifmap height", "ifmap width"},  // 14 shipped files repeat "IFMAP Width": SCALE-Sim reads by position
    {"ifmap width"},
    {"filter height"},
    {"filter width"},
    {"channels", "channel"},
    {"num filter", "num filters"},
    {"strides", "stride", "stride height"}};
const char kConvHeader[] =
    "'Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, "
    "Strides,'";
const char kGemmHeader[] = "'Layer, M, N, K,'";
constexpr int64_t kMaxValue = int64_t{1} << 30;

// Lower case, runs of spaces, tabs and non-breaking spaces (U+00A0) made one space, trimmed.
std::string normal(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const bool nbsp = c == '\xC2' && i + 1 < s.size() && s[i + 1] == '\xA0';
    if (nbsp) ++i;
    if (c == ' ' || c == '\t' || nbsp) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

struct Reader {
  const std::string& source;
  const WorkloadOptions& o;
  char separator = ',';
  mutable bool extra_columns = false;  // a conv row had a non-empty field past the 9th

  [[noreturn]] void fail(int line, int column, const std::string& path,
                         const std::string& message) const {
    SourceLocation where;
    where.file = source;
    where.line = line;
    where.column = column;
    where.yaml_path = path;
    throw ConfigError(where, message);
  }

  Format format(const Row& header) const;
  int64_t number(const Row& row, size_t i, const std::string& path) const;
  Sparsity sparsity(const Row& row, size_t i, const std::string& layer) const;
  void conv(const Row& row, const std::string& path, const std::string& name, Graph& g) const;
  void gemm(const Row& row, const std::string& path, const std::string& name, Graph& g) const;
};

Format Reader::format(const Row& header) const {
  const std::vector<Field>& f = header.fields;
  const std::string expected = std::string("expected SCALE-Sim's conv header ") + kConvHeader +
                               " or its GEMM header " + kGemmHeader;
  if (f.size() < 4) {
    fail(header.line, f[0].column, "header",
         "a header of " + std::to_string(f.size()) +
             (separator == '\t' ? " tab-separated field" : " comma-separated field") +
             (f.size() == 1 ? "" : "s") + " ('" + f[0].text + "'); " + expected);
  }
  const auto& layer = kConvAliases[0];
  if (std::find(layer.begin(), layer.end(), normal(f[0].text)) == layer.end()) {
    fail(header.line, f[0].column, "header[0]",
         "unknown first column '" + f[0].text + "'; " + expected);
  }
  if (normal(f[1].text) == "m") {
    for (size_t i = 2; i < 4; ++i) {
      if (normal(f[i].text) != normal(kGemmColumns[i])) {
        fail(header.line, f[i].column, "header[" + std::to_string(i) + "]",
             "expected column '" + kGemmColumns[i] + "' of the GEMM header " + kGemmHeader +
                 ", got '" + f[i].text + "'");
      }
    }
    return Format::Gemm;
  }
  for (size_t i = 1; i < kConvAliases.size(); ++i) {
    const auto& names = kConvAliases[i];
    if (i < f.size() && std::find(names.begin(), names.end(), normal(f[i].text)) != names.end()) {
      continue;
    }
    const Field& at = i < f.size() ? f[i] : f.back();
    fail(header.line, at.column, "header[" + std::to_string(i) + "]",
         "expected column '" + kConvColumns[i] + "' of the conv header " + kConvHeader + ", got " +
             (i < f.size() ? "'" + f[i].text + "'" : "the end of the line") +
             (i == 1 ? " (or 'M' of the GEMM header " + std::string(kGemmHeader) + ")" : ""));
  }
  return Format::Conv;  // later header columns (Sparsity, Batch Size, ...) are not checked
}

int64_t Reader::number(const Row& row, size_t i, const std::string& path) const {
  const Field& f = row.fields[i];
  int64_t v = 0;
  const char* end = f.text.data() + f.text.size();
  const auto [ptr, ec] = std::from_chars(f.text.data(), end, v);
  if (f.text.empty() || ec == std::errc::invalid_argument || ptr != end) {
    fail(row.line, f.column, path,
         "expected a positive integer, got " + (f.text.empty() ? "nothing" : "'" + f.text + "'"));
  }
  if (ec == std::errc::result_out_of_range || v > kMaxValue) {
    fail(row.line, f.column, path, "'" + f.text + "' is too large (at most 2^30)");
  }
  if (v < 1) fail(row.line, f.column, path, "must be at least 1 (got " + f.text + ")");
  return v;
}

// v3's N:M structured-sparsity ratio: N of every M filter values along the reduction are
// non-zero; the layer's weights carry it (dense when N = M).
Sparsity Reader::sparsity(const Row& row, size_t i, const std::string& layer) const {
  const Field& f = row.fields[i];
  const std::string path = layer + ".Sparsity";
  const size_t colon = f.text.find(':');
  auto part = [&](const std::string& s) {
    int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    const bool ok = !s.empty() && ec == std::errc() && ptr == s.data() + s.size() && v >= 1 &&
                    v <= kMaxValue;
    if (!ok) {
      fail(row.line, f.column, path,
           "expected an N:M sparsity ratio of positive integers such as 2:4, got '" + f.text + "'");
    }
    return v;
  };
  const int64_t n = part(f.text.substr(0, colon)), m = part(f.text.substr(colon + 1));
  if (n > m) {
    fail(row.line, f.column, path,
         "sparsity " + f.text + " keeps more values (N) than each block has (M); expected N <= M");
  }
  if (n == m || m > 64) {
    if (n == m) return {};
    fail(row.line, f.column, path, "sparsity " + f.text + " has groups of more than 64 values");
  }
  return Sparsity::nm(static_cast<int>(n), static_cast<int>(m));
}

void checkMacs(const Reader& r, const Row& row, const std::string& path,
               std::initializer_list<int64_t> factors) {
  __int128 p = 1;
  for (int64_t v : factors) {
    p *= v;
    if (p > INT64_MAX) r.fail(row.line, 1, path, "the layer's MAC count overflows int64");
  }
}

void Reader::conv(const Row& row, const std::string& path, const std::string& name,
                  Graph& g) const {
  // SCALE-Sim reads 8 fields and an optional 9th; an empty 9th is absent, and fields past the 9th
  // are ignored (Resnet50.csv keeps notes there), with one warning per file.
  size_t n = row.fields.size();
  if (n < 8) {
    fail(row.line, row.fields[n - 1].column, path,
         "expected 8 fields (" + std::string(kConvHeader) +
             ") and an optional 9th (stride width, or an N:M sparsity ratio), got " +
             std::to_string(n));
  }
  for (size_t i = 9; i < n; ++i) extra_columns = extra_columns || !row.fields[i].text.empty();
  n = n > 8 && !row.fields[8].text.empty() ? 9 : 8;
  int64_t v[8] = {};
  for (size_t i = 1; i < 8; ++i) v[i] = number(row, i, path + "." + kConvColumns[i]);
  const int64_t h = v[1], w = v[2], r = v[3], s = v[4], c = v[5], k = v[6], stride = v[7];
  if (r > h) {
    fail(row.line, row.fields[3].column, path + ".Filter Height",
         "filter height " + std::to_string(r) + " is larger than IFMAP Height " +
             std::to_string(h) + " (SCALE-Sim's IFMAP dims already include any padding)");
  }
  if (s > w) {
    fail(row.line, row.fields[4].column, path + ".Filter Width",
         "filter width " + std::to_string(s) + " is larger than IFMAP Width " + std::to_string(w) +
             " (SCALE-Sim's IFMAP dims already include any padding)");
  }
  Sparsity weights;
  if (n == 9 && row.fields[8].text.find(':') != std::string::npos) {
    weights = sparsity(row, 8, path);
  } else if (n == 9) {
    const int64_t stride_w = number(row, 8, path + ".Stride width");
    if (stride_w != stride) {
      fail(row.line, row.fields[8].column, path + ".Stride width",
           "stride width " + std::to_string(stride_w) + " differs from Strides " +
               std::to_string(stride) + "; tessel's conv has one stride for both axes");
    }
  }
  // SCALE-Sim's depthwise test: "DP" anywhere in the name, case-sensitive.
  const bool depthwise = name.find("DP") != std::string::npos;
  const int64_t groups = depthwise ? c : 1, outputs = depthwise ? c * k : k;
  // SCALE-Sim's ofmap is ceil((IFMAP - filter + stride) / stride) per axis, realized as the
  // symmetric padding ceilPad gives each axis (pad stays 0 when the stride divides IFMAP - filter).
  const int64_t batch = o.batch, pad_h = ceilPad(h, r, stride), pad_w = ceilPad(w, s, stride);
  const int64_t p = (h - r + 2 * pad_h) / stride + 1, q = (w - s + 2 * pad_w) / stride + 1;
  checkMacs(*this, row, path, {batch, p, q, r, s, c, k, outputs});
  detail::Builder b{g, o.dtype};
  const int x = b.input(name + ".ifmap", {batch, h, w, c}, o.dtype);
  // ConvShape has one pad: it holds the height's (the leading pad, as the ONNX importer's), and
  // p and q are each axis's exact count (pad_w may differ from pad_h when H - R and W - S do).
  ConvShape cs;
  cs.n = batch;
  cs.h = h;
  cs.w = w;
  cs.c = c;
  cs.k = outputs;
  cs.r = r;
  cs.s = s;
  cs.stride = stride;
  cs.pad = pad_h;
  cs.p = p;
  cs.q = q;
  cs.groups = groups;
  const int wt = b.weight(name + ".weight", {r, s, c / groups, outputs});
  g.tensor(wt).sparsity = weights;
  Op op = detail::makeOp(name, OpKind::Conv2d, {x, wt});
  op.conv = cs;
  op.gemm = {groups, batch * p * q, outputs / groups, c / groups * r * s};
  op.macs = op.gemm.macs();
  b.emit(std::move(op), {batch, p, q, outputs});
}

void Reader::gemm(const Row& row, const std::string& path, const std::string& name,
                  Graph& g) const {
  const size_t n = row.fields.size();
  if (n != 4 && n != 5) {
    fail(row.line, row.fields[std::min<size_t>(n, 5) - 1].column, path,
         "expected 4 fields (" + std::string(kGemmHeader) +
             ") and an optional 5th (an N:M sparsity ratio), got " + std::to_string(n));
  }
  const int64_t m = number(row, 1, path + ".M"), cols = number(row, 2, path + ".N"),
                k = number(row, 3, path + ".K");
  const Sparsity weights = n == 5 ? sparsity(row, 4, path) : Sparsity{};
  checkMacs(*this, row, path, {o.batch, m, cols, k});
  detail::Builder b{g, o.dtype};
  // SCALE-Sim: an M x K ifmap times a K x N filter makes the M x N ofmap.
  const int x = b.input(name + ".ifmap", {o.batch * m, k}, o.dtype);
  const int wt = b.weight(name + ".weight", {k, cols});
  g.tensor(wt).sparsity = weights;
  Op op = detail::makeOp(name, OpKind::MatMul, {x, wt});
  op.gemm = {1, o.batch * m, cols, k};
  op.macs = op.gemm.macs();
  b.emit(std::move(op), {o.batch * m, cols});
}

// The op name of a layer: its own, made unique.
std::string opName(const std::string& given, size_t index, std::map<std::string, int>& seen,
                   const std::string& where, Graph& g) {
  std::string name = given.empty() ? "layer" + std::to_string(index) : given;
  const int count = ++seen[name];
  if (count == 1) return name;
  // The first "#N" from the count on that no layer holds (a file may name one "conv#2" itself).
  std::string unique;
  for (int n = count; seen.count(unique = name + "#" + std::to_string(n)) > 0; ++n) {
  }
  g.warnings.push_back(where + ": layer name '" + name + "' repeats; this one is op '" + unique +
                       "'");
  ++seen[unique];
  return unique;
}

}  // namespace

int64_t ceilPad(int64_t in, int64_t filter, int64_t stride) {
  const int64_t rest = (in - filter) % stride;
  return rest == 0 ? 0 : (stride - rest + 1) / 2;
}

Graph parseTopology(const std::string& text, const std::string& source,
                    const WorkloadOptions& options) {
  const Reader reader{source, options, separatorOf(text)};
  // Every line may be a layer: refuse a topology whose layers cannot fit before splitting it.
  const int64_t lines = lineCount(text);
  budget::checkCount(lines - 1, static_cast<int64_t>(sizeof(Row) + 9 * sizeof(Field)) + bytesPerOp(),
                     "layers", {source, static_cast<int>(std::min<int64_t>(lines, INT_MAX)), 0, "workload"});
  const std::vector<Row> rows = splitRows(text, reader.separator);
  if (rows.empty()) {
    reader.fail(0, 0, "header",
                "empty topology; expected a header line (conv " + std::string(kConvHeader) +
                    " or GEMM " + kGemmHeader + ") and one line per layer");
  }
  const Format format = reader.format(rows[0]);
  if (rows.size() == 1) {
    reader.fail(rows[0].line, 1, "layer[0]", "the topology has a header but no layers");
  }
  Graph g;
  const std::string stem = std::filesystem::path(source).stem().string();
  g.name = stem + " (SCALE-Sim " + (format == Format::Conv ? "conv" : "GEMM") + " topology" +
           (options.batch > 1 ? ", batch=" + std::to_string(options.batch) : "") + ")";
  std::map<std::string, int> seen;
  size_t layer = 0;
  for (size_t i = 1; i < rows.size(); ++i) {
    const Row& row = rows[i];
    const std::string where = source + ":" + std::to_string(row.line);
    bool title = true;  // only a name: a section title such as MLPERF.csv's "AlphaGoZero,"
    for (size_t f = 1; f < row.fields.size(); ++f) title = title && row.fields[f].text.empty();
    if (title) {
      g.warnings.push_back(where + ": '" + row.fields[0].text +
                           "' has no layer fields (a section title?); skipped");
      continue;
    }
    const std::string path = "layer[" + std::to_string(layer) + "]";
    const std::string name = opName(row.fields[0].text, layer, seen, where, g);
    ++layer;
    if (format == Format::Conv) {
      reader.conv(row, path, name, g);
    } else {
      reader.gemm(row, path, name, g);
    }
    g.op(static_cast<int>(g.ops().size()) - 1).source = where;
  }
  if (layer == 0) {
    reader.fail(rows[0].line, 1, "layer[0]", "the topology has a header but no layers");
  }
  if (reader.extra_columns) {
    g.warnings.push_back(source + ": columns past the 9th are ignored (SCALE-Sim reads only the first 9)");
  }
  return g;
}

Graph importTopology(const std::string& path, const WorkloadOptions& options) {
  std::string text;
  try {  // the one rule every input file follows (util/input_file.h); 1 GiB is some 10^7 layers,
         // whose graph the memory budget refuses anyway (parseTopology)
    text = readInputFile(path, "a SCALE-Sim topology CSV", size_t{1} << 30);
  } catch (const ConfigError& e) {
    throw ConfigError({path, 0, 0, "workload"}, e.message());
  }
  return parseTopology(text, path, options);
}

}  // namespace tessel::models::scalesim
