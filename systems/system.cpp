#include "systems/system.h"

#include <filesystem>

#include "arch/load.h"
#include "util/paths.h"
#include "util/units.h"
#include "util/yaml.h"

namespace tessel::systems {

namespace {

Link readLink(const yaml::Node& node) {
  yaml::MapReader r(node);
  const yaml::Node bw = r.require("bandwidth", "bytes per second per link per direction, e.g. 50 GB/s");
  Link l;
  l.bandwidth = units::parseByteRate(bw.scalar("a bandwidth"), 0, bw.where());
  if (!(l.bandwidth > 0)) bw.fail("a link's bandwidth must be above zero");
  if (const auto lat = r.find("latency")) l.latency = units::parseSeconds(lat->scalar("a time"), lat->where());
  else l.latency = kDefaultLinkLatency;
  if (const auto e = r.find("energy")) l.energy_pj_per_byte = units::parseEnergyPerByte(e->scalar("an energy per byte"), e->where());
  else l.energy_pj_per_byte = kDefaultLinkEnergy;
  r.finish();
  return l;
}

int readSize(const yaml::Node& node, const std::string& what) {
  const int64_t v = node.as<int64_t>();
  if (v < 1 || v > kMaxChips)
    node.fail(what + " must be 1 .. " + std::to_string(kMaxChips) + ", got " + std::to_string(v));
  return static_cast<int>(v);
}

// One fabric (a flat topology, or one level of a hierarchical one) as dimensions.
std::vector<Dim> readFabric(yaml::MapReader& r, const std::string& kind, const yaml::Node& kind_node,
                            const Link& link, int level, std::optional<int> flat_count) {
  std::vector<Dim> dims;
  if (kind == "torus" || kind == "mesh") {
    const yaml::Node list = r.require("dims", "chips along each dimension, innermost first, e.g. [4, 4, 4]");
    for (const yaml::Node& d : list.items()) {
      const int size = readSize(d, "a dimension");
      // A torus dimension of two chips has one link each way, as a line does.
      dims.push_back({kind == "torus" && size > 2 ? DimKind::Ring : DimKind::Line, size, link, level});
    }
    if (dims.empty()) list.fail("expected at least one dimension");
    return dims;
  }
  DimKind k = DimKind::Ring;
  if (kind == "switch") k = DimKind::Switch;
  else if (kind == "fully_connected") k = DimKind::FullyConnected;
  else if (kind != "ring")
    kind_node.fail("unknown topology kind '" + kind + "'; expected ring, torus, mesh, switch, fully_connected" +
                   (flat_count ? ", hierarchical" : ""));
  const auto size = r.find("size");
  if (!size && !flat_count) r.require("size", "chips on this level's fabric");
  dims.push_back({k, size ? readSize(*size, "size") : *flat_count, link, level});
  return dims;
}

Topology readTopology(const yaml::Node& node, const std::optional<yaml::Node>& link_node, int count) {
  yaml::MapReader r(node);
  const yaml::Node kind_node = r.require("kind", "ring, torus, mesh, switch, fully_connected or hierarchical");
  Topology t;
  t.kind = kind_node.as<std::string>();
  if (t.kind == "hierarchical") {
    if (link_node) link_node->fail("a hierarchical topology gives each of its levels its own link");
    const yaml::Node levels = r.require("levels", "the fabrics from the innermost (inside a node) out");
    int level = 0;
    for (const yaml::Node& l : levels.items()) {
      yaml::MapReader lr(l);
      const yaml::Node lk = lr.require("kind", "ring, torus, mesh, switch or fully_connected");
      const Link link = readLink(lr.require("link", "this level's links"));
      for (const Dim& d : readFabric(lr, lk.as<std::string>(), lk, link, level++, std::nullopt))
        t.dims.push_back(d);
      lr.finish();
    }
    if (t.dims.empty()) levels.fail("expected at least one level");
  } else {
    if (!link_node) node.fail("the system needs `link: {bandwidth: ...}` beside its topology");
    t.dims = readFabric(r, t.kind, kind_node, readLink(*link_node), 0, count);
  }
  r.finish();
  if (t.ranks() != count) {
    std::string shape;
    for (const Dim& d : t.dims) shape += (shape.empty() ? "" : " x ") + std::to_string(d.size);
    node.fail("the topology holds " + shape + " = " + std::to_string(t.ranks()) + " chips, count is " +
              std::to_string(count));
  }
  int64_t links = 0;
  for (const Dim& d : t.dims) links += t.ranks() * (d.kind == DimKind::FullyConnected ? d.size : 2);
  if (links > kMaxLinks)
    node.fail("this topology has " + std::to_string(links) + " links; at most " +
              std::to_string(kMaxLinks) + " are modeled");
  return t;
}

// The chip's YAML: beside the system file, or (if not there) from the working directory.
std::string chipPath(const yaml::Node& node, const std::string& source) {
  const std::string written = node.as<std::string>();
  const std::string beside = resolveBeside(source, written);
  if (std::filesystem::exists(beside)) return beside;
  if (std::filesystem::exists(written)) return written;
  node.fail("no chip design '" + written + "' (looked for " + beside + " and, from the working directory, " +
            written + ")");
}

System build(yaml::Document doc, const std::vector<std::string>& overrides) {
  for (const std::string& o : overrides) doc.override(o);
  yaml::MapReader top(doc.root());
  const yaml::Node sys = top.require("system", "the system: its chips and their interconnect");
  top.finish();
  yaml::MapReader r(sys);
  System s;
  s.source = doc.source();
  s.name = r.optional<std::string>("name", std::filesystem::path(s.source).stem().string(), "the system's name");
  const yaml::Node chip = r.require("chip", "the accelerator YAML every chip is");
  s.chip_overrides = r.optional<std::vector<std::string>>("overrides", {}, "-p overrides on the chip");
  s.count = readSize(r.require("count", "how many chips"), "count");
  const yaml::Node topology = r.require("topology", "how the chips are joined");
  const std::optional<yaml::Node> link = r.find("link");
  if (const auto o = r.find("collective_overhead")) s.collective_overhead_s = units::parseSeconds(o->scalar("a time"), o->where());
  else s.collective_overhead_s = kDefaultCollectiveOverhead;
  r.finish();
  s.topology = readTopology(topology, link, s.count);
  s.chip_file = chipPath(chip, s.source);
  s.chip = arch::loadFile(s.chip_file, s.chip_overrides);
  return s;
}

}  // namespace

System loadSystem(const std::string& path, const std::vector<std::string>& overrides) {
  return build(yaml::Document::fromFile(path), overrides);
}

System loadSystemString(const std::string& yaml, const std::string& source_name,
                        const std::vector<std::string>& overrides) {
  return build(yaml::Document::fromString(yaml, source_name), overrides);
}

}  // namespace tessel::systems
