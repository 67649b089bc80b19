#!/usr/bin/python3
"""Checks a report as Chromium rendered it (its --dump-dom output) against the input it came from.

  check_report_dom.py make-sweep DIR            write a sweep fixture directory
  check_report_dom.py make-compare FILE         write a compare fixture JSON
  check_report_dom.py compare FILE DOM.html PNG
  check_report_dom.py run RUN.json DOM.html PNG
  check_report_dom.py sweep DIR DOM.html PNG
  check_report_dom.py serve SERVE.json DOM.html PNG

Standard library only. Exits 1 with one line per failed check.
"""
import html.parser
import json
import os
import struct
import sys

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
    return cond


class Dom(html.parser.HTMLParser):
    """Every element with its attributes, its ancestors' ids and the text of a <title> child."""

    VOID = {"meta", "br", "hr", "img", "input", "link", "col", "area", "base", "wbr", "source"}

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.elements, self.stack = [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        e = {"tag": tag, "attrs": dict(attrs), "title": "", "text": "",
             "scopes": [s["attrs"].get("id") for s in self.stack if s["attrs"].get("id")],
             "parent": self.stack[-1] if self.stack else None, "anc": list(self.stack)}
        self.elements.append(e)
        if tag not in self.VOID and not tag.endswith("/"):
            self.stack.append(e)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if self.stack and self.stack[-1]["tag"] == tag:
            self.stack.pop()

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i]["tag"] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        for e in self.stack:
            e["text"] += data
        if self.stack and self.stack[-1]["tag"] == "title" and self.stack[-1]["parent"]:
            self.stack[-1]["parent"]["title"] += data

    def by_id(self, id_):
        for e in self.elements:
            if e["attrs"].get("id") == id_:
                return e
        return None

    def marks(self, chart_id):
        return [e for e in self.elements if chart_id in e["scopes"]
                and "mark" in e["attrs"].get("class", "").split()]

    def inside(self, ancestor, cls):
        return [e for e in self.elements if any(a is ancestor for a in e["anc"])
                and cls in e["attrs"].get("class", "").split()]


def classes(e):
    return e["attrs"].get("class", "").split()


SI = {"p": -12, "n": -9, "\u00b5": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15,
      "E": 18}
BINARY = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]


def expected_factor(unit, base):
    """How many base units one `unit` is, from the names alone; None when they do not match."""
    if unit == "%":
        return 0.01 if base == "ratio" else None
    if unit == base:
        return 1.0
    if base == "B":
        return 1024.0 ** BINARY.index(unit) if unit in BINARY else None
    for q in range(0, min(2, len(base)) + 1):
        if base[:q] not in SI:
            continue
        symbol = base[q:]
        for p in range(0, min(2, len(unit)) + 1):
            if unit[:p] not in SI or (p == 0 and q == 0):
                continue
            rest = unit[p:]
            if symbol and rest.startswith(" "):
                rest = rest[1:]
            if rest == symbol:
                return 10.0 ** (SI[unit[:p]] - SI[base[:q]])
    return None


def check_axes(dom, mode):
    """Every value axis starts at 0 or is broken (with a break mark), its factor is what its unit
    says, its tick labels times the factor are the ticks' values, its title names the unit; every
    stacked chart's legend lists exactly the series it draws."""
    axes = [e for e in dom.elements if e["tag"] == "g" and "axis" in classes(e)
            and e["attrs"].get("data-axis-role") == "value"]
    check(len(axes) > 0, "%s: no value axis" % mode)
    for a in axes:
        at = a["attrs"]
        what = "%s axis %s in %s" % (mode, at["data-axis"], a["scopes"][-1:] or "?")
        lo, broken = float(at["data-axis-min"]), at["data-axis-break"] == "true"
        marks = dom.inside(a, "axis-break")
        if broken:
            check(lo > 0 and len(marks) == 1, what + ": broken axis without a break mark")
        else:
            check(lo <= 0 and not marks, what + ": starts at %g without a break" % lo)
        factor = float(at["data-axis-factor"])
        want = expected_factor(at["data-axis-unit"], at["data-axis-base-unit"])
        check(want is not None and abs(factor - want) <= 1e-12 * want,
              what + ": unit %r of %r has factor %g" % (at["data-axis-unit"], at["data-axis-base-unit"], factor))
        ticks = dom.inside(a, "tick")
        check(len(ticks) >= 2, what + ": fewer than 2 ticks")
        for t in ticks:
            v, label = float(t["attrs"]["data-tick"]), float(t["text"])
            check(abs(label * factor - v) <= 1e-9 * max(abs(v), factor),
                  what + ": tick %s for %s" % (t["text"], t["attrs"]["data-tick"]))
        titles = dom.inside(a, "axis-label")
        unit = at["data-axis-unit"]
        check(len(titles) == 1 and (not unit or "(%s)" % unit in titles[0]["text"]),
              what + ": the title does not name " + unit)
    for svg in (e for e in dom.elements if e["tag"] == "svg" and e["attrs"].get("data-chart") == "stacked"):
        drawn = {m["attrs"]["data-series"] for m in dom.inside(svg, "mark")}
        listed = {e["attrs"]["data-series"] for e in dom.inside(svg, "legend-entry")}
        check(drawn and drawn == listed, "%s: legend %s != series %s" % (svg["attrs"]["id"], listed, drawn))


def check_common(dom, png):
    for e in dom.elements:
        if e["tag"] == "script":
            check("src" not in e["attrs"], "an external script")
        check(e["tag"] not in ("link", "img", "iframe"), "an external resource: <%s>" % e["tag"])
        if "mark" in e["attrs"].get("class", "").split():
            check(e["title"].strip() != "", "a mark without a tooltip in %s" % e["scopes"])
    check(os.path.exists(png), "no screenshot " + png)
    if os.path.exists(png):
        data = open(png, "rb").read()
        check(data[:8] == b"\x89PNG\r\n\x1a\n", "the screenshot is not a PNG")
        w, h = struct.unpack(">II", data[16:24])
        check((w, h) == (1400, 3000), "screenshot is %dx%d, not 1400x3000" % (w, h))
        # A blank 1400x3000 page compresses to a few KB; charts and tables make it far larger.
        check(len(data) > 30000, "screenshot is only %d bytes: blank?" % len(data))


def values(dom, chart, *keys):
    out = {}
    for m in dom.marks(chart):
        out[tuple(m["attrs"].get("data-" + k) for k in keys)] = float(m["attrs"]["data-cycles"])
    return out


def check_run(run_path, dom_path, png):
    run = json.load(open(run_path))
    dom = Dom(open(dom_path, encoding="utf-8").read())
    for id_ in ("totals", "chart-by-class", "chart-by-cause", "chart-class-by-cause",
                "table-layers", "table-classes", "table-causes"):
        check(dom.by_id(id_) is not None, "no element #" + id_)
    totals = dom.by_id("totals")
    if totals:
        for k in ("cycles", "seconds", "energy_pj", "macs", "utilization", "dram_bytes"):
            check(float(totals["attrs"].get("data-" + k, "nan")) == float(run["totals"][k]),
                  "#totals data-%s != totals.%s" % (k, k))
    for key, chart in (("class", "chart-by-class"), ("cause", "chart-by-cause")):
        want = {(e[key],): float(e["cycles"]) for e in run["breakdown"]["by_" + key] if e["cycles"] > 0}
        got = values(dom, chart, key)
        check(got == want, "%s: %s != %s" % (chart, got, want))
    want = {}
    for op in run["ops"]:
        for cause, v in op["cycles_by_cause"].items():
            if v > 0:
                want[(op["class"], cause)] = want.get((op["class"], cause), 0.0) + v
    got = values(dom, "chart-class-by-cause", "class", "cause")
    check(got.keys() == want.keys() and all(abs(got[k] - want[k]) <= 1e-9 * max(1, want[k]) for k in want),
          "chart-class-by-cause %s != %s" % (got, want))
    check_run_energy(run, dom)
    rows = [e for e in dom.elements if e["tag"] == "tr" and "table-layers" in e["scopes"]][1:]
    check(len(rows) == len(run["ops"]), "table-layers has %d rows, ops %d" % (len(rows), len(run["ops"])))
    cells = [e for e in dom.elements if e["tag"] == "td" and "table-layers" in e["scopes"]]
    ncol = len(cells) // max(1, len(rows))
    for i, op in enumerate(run["ops"][:len(rows)]):
        check(cells[i * ncol + 1]["attrs"]["data-value"] == op["name"], "layer %d name" % i)
        check(float(cells[i * ncol + 5]["attrs"]["data-value"]) == op["cycles"], "layer %d cycles" % i)
    check_axes(dom, "run")
    check_common(dom, png)


def check_run_energy(run, dom):
    """Energy by component (static included) and traffic by level, as the totals give them; the
    area chart exactly when the design has an area."""
    t = run["totals"]
    got = {m["attrs"]["data-component"]: float(m["attrs"]["data-energy_pj"])
           for m in dom.marks("chart-energy-by-component") if m["attrs"]["data-row"] == "all energy"}
    want = {k: float(v) for k, v in t["energy_by_component"].items() if v > 0}
    check(got == want, "chart-energy-by-component %s != %s" % (got, want))
    check("static" in t["energy_by_component"], "the run JSON has no static energy entry")
    levels = {}
    for m in dom.marks("chart-traffic-by-level"):
        levels[m["attrs"]["data-level"]] = levels.get(m["attrs"]["data-level"], 0) + float(m["attrs"]["data-bytes"])
    for level, b in t["bytes_by_level"].items():
        check(levels.get(level, 0) == b, "traffic of %s: %s != %s" % (level, levels.get(level), b))
    has_area = t.get("area_mm2", 0) > 0
    check((dom.by_id("chart-area-by-component") is not None) == has_area,
          "area chart present: %s, area %s" % (not has_area, t.get("area_mm2")))


DATAFLOWS = ("ws", "os")


def fixture_point(index, w, sp, acc, seq, d, df):
    """One point: cycles fall with both memories, grow with seq and are 1.2x under os; energy
    falls with SRAM; area grows with it: latency, energy and area trade off."""
    p = {"index": index, "id": "p%d" % index,
         "params": {"scratchpad.capacity": "%dKiB" % sp, "accumulator.capacity": "%dKiB" % acc,
                    "workload": w, "workload.seq": seq, "dataflow": df},
         "numeric": {"scratchpad.capacity": sp * 1024, "accumulator.capacity": acc * 1024,
                     "workload.seq": seq}}
    if index == 1:
        p.update(status="failed", error_kind="infeasible",
                 error="infeasible: no mapping for op 'h0.attn.qkv': too small")
        return p
    cyc = (1e6 + 3e7 / sp + 1e7 / acc) * seq / 64.0 * (1.5 if w == "bert-base" else 1) * (1 + 0.2 * d)
    sram = (sp + acc) * 1024
    p.update(status="ok", metrics={
        "cycles": cyc, "seconds": cyc / 1e9, "energy_pj": (1e9 + 4e11 / (sp + acc) + cyc) * (1 + 0.1 * d),
        "utilization": 0.5, "sram_bytes": sram, "area_mm2": 0.5 + sram / 1048576.0,
        "by_class": {"MatMul": cyc * 0.75, "Softmax": cyc * 0.25}})
    return p


def fixture_points():
    pts, index = [], 0
    for w in ("gpt2-small", "bert-base"):
        for sp in (16, 64, 256):
            for acc in (64, 256):
                for seq in (64, 128):
                    for d, df in enumerate(DATAFLOWS):
                        pts.append(fixture_point(index, w, sp, acc, seq, d, df))
                        index += 1
    return pts


def make_sweep(d):
    os.makedirs(d, exist_ok=True)
    pts = fixture_points()
    meta = {"schema": "tessel.sweep/1", "name": "sram", "spec": "configs/sweeps/x.yaml",
            "spec_hash": "abc", "base_arch": "configs/arch/gemmini-default.yaml",
            "engine": "analytical", "total_points": len(pts),
            "keys": ["scratchpad.capacity", "accumulator.capacity", "workload", "workload.seq", "dataflow"],
            "metrics": ["cycles", "seconds", "energy_pj", "utilization", "sram_bytes", "area_mm2", "by_class"]}
    json.dump(meta, open(os.path.join(d, "sweep.json"), "w"), indent=2)
    with open(os.path.join(d, "results.jsonl"), "w") as f:
        for p in pts:
            f.write(json.dumps(p) + "\n")


def table_rows(dom, name):
    """The rows of #table-NAME's body, each the list of its cells' data-value."""
    rows = [e for e in dom.elements if e["tag"] == "tr" and "table-" + name in e["scopes"]][1:]
    return [[c["attrs"].get("data-value") for c in dom.elements if c["tag"] == "td" and c["parent"] is r]
            for r in rows]


def front_of(ok, metrics):
    """The indices of the points no other point beats: as good in every metric, better in one."""
    def dominates(q, p):
        qs, ps = [q["metrics"][m] for m in metrics], [p["metrics"][m] for m in metrics]
        return all(a <= b for a, b in zip(qs, ps)) and qs != ps
    return {p["index"] for p in ok if not any(dominates(q, p) for q in ok)}


def check_sweep_panels(dom, w, ok):
    """One heatmap panel per dataflow (cells: the minimum over the third key within it), one line
    per dataflow, and one bar per dataflow: no dataflow is reduced to the best one."""
    keys = ["scratchpad.capacity", "accumulator.capacity", "workload.seq"]
    for a in range(3):
        for b in range(a + 1, 3):
            for panel, df in enumerate(DATAFLOWS):
                want = {}
                for p in ok:
                    if p["params"]["dataflow"] != df:
                        continue
                    k = (float(p["numeric"][keys[a]]), float(p["numeric"][keys[b]]))
                    want[k] = min(want.get(k, float("inf")), p["metrics"]["cycles"])
                cid = "sweep-%d-cycles-heatmap-%d-%d-p%d" % (w, a, b, panel)
                svg = dom.by_id(cid)
                check(svg is not None and svg["attrs"].get("data-panel") == "dataflow=" + df,
                      "%s is not the %s panel" % (cid, df))
                got = {(float(m["attrs"]["data-x"]), float(m["attrs"]["data-y"])):
                       float(m["attrs"]["data-value"]) for m in dom.marks(cid)}
                check(len(dom.marks(cid)) == len(want) and got == want, "%s cells differ" % cid)
    for a in range(3):
        cid = "sweep-%d-energy_pj-line-%d" % (w, a)
        series = {m["attrs"]["data-series"] for m in dom.marks(cid)}
        check(series == {"dataflow=" + df for df in DATAFLOWS}, "%s series %s" % (cid, series))
    bars = {m["attrs"]["data-panel"]: float(m["attrs"]["data-value"])
            for m in dom.marks("sweep-%d-cycles-panels" % w)}
    want = {"dataflow=" + df: min(p["metrics"]["cycles"] for p in ok if p["params"]["dataflow"] == df)
            for df in DATAFLOWS}
    check(bars == want, "sweep-%d-cycles-panels %s != %s" % (w, bars, want))


def check_sweep_fronts(dom, w, ok):
    for cid, metrics in (("sweep-%d-pareto-sram" % w, ["sram_bytes", "cycles"]),
                         ("sweep-%d-pareto-energy" % w, ["cycles", "energy_pj", "area_mm2"])):
        front = front_of(ok, metrics)
        got = {int(m["attrs"]["data-index"]) for m in dom.marks(cid) if m["attrs"]["data-front"] == "1"}
        check(got == front, "%s front %s != %s" % (cid, sorted(got), sorted(front)))
        check(len(dom.marks(cid)) == len(ok), "%s plots %d points, %d ran" % (cid, len(dom.marks(cid)), len(ok)))
        rows = {int(r[2]) for r in table_rows(dom, "pareto")
                if r[0] == ok[0]["params"]["workload"] and r[1] == " vs ".join(metrics)}
        check(rows == front, "table-pareto rows of %s: %s != %s" % (cid, sorted(rows), sorted(front)))


def check_sweep(d, dom_path, png):
    dom = Dom(open(dom_path, encoding="utf-8").read())
    pts = [json.loads(line) for line in open(os.path.join(d, "results.jsonl"))]
    for w, name in enumerate(("gpt2-small", "bert-base")):
        ok = [p for p in pts if p["status"] == "ok" and p["params"]["workload"] == name]
        check_sweep_panels(dom, w, ok)
        check_sweep_fronts(dom, w, ok)
        for m in ("cycles", "energy_pj", "area_mm2"):
            check(dom.by_id("fig-sweep-%d-%s-heatmap-0-1" % (w, m)) is not None, "no %s charts" % m)
        best = min(ok, key=lambda p: p["metrics"]["cycles"])
        note = dom.by_id("sweep-%d-best" % w)
        if check(note is not None, "no best point for " + name):
            check(note["attrs"].get("data-index") == str(best["index"]), "best of %s" % name)
            for k, v in best["params"].items():
                check("%s=%s" % (k, v) in note["text"], "best note lacks %s=%s" % (k, v))
    failed = [p["index"] for p in pts if p["status"] != "ok"]
    plotted = {m["attrs"].get("data-index") for m in dom.elements if "mark" in m["attrs"].get("class", "")}
    for i in failed:
        check(str(i) not in plotted, "failed point %d is plotted" % i)
    rows = [e for e in dom.elements if e["tag"] == "tr" and "table-points" in e["scopes"]][1:]
    check(len(rows) == len(pts), "table-points has %d rows, not %d" % (len(rows), len(pts)))
    check(len(table_rows(dom, "pareto")) > 0, "table-pareto is empty")
    check(any("failed" in r["text"] and "no mapping" in r["text"] for r in rows), "failure not listed")
    check_axes(dom, "sweep")
    check_common(dom, png)


def attr_floats(m, *keys):
    return tuple(float(m["attrs"]["data-" + k]) for k in keys)


def check_serve(path, dom_path, png):
    doc = json.load(open(path))
    dom = Dom(open(dom_path, encoding="utf-8").read())
    configs = doc["configurations"]
    for id_ in ("serve-service-times", "serve-throughput", "serve-p99", "serve-best",
                "table-service_times", "table-configurations"):
        check(dom.by_id(id_) is not None, "no element #" + id_)
    grid = [i for i, c in enumerate(configs) if c["variant"] == ""]
    for chart, key, field in (("serve-throughput", "throughput", lambda c: c["throughput"]),
                              ("serve-p99", "p99_s", lambda c: c["latency_s"]["p99"])):
        got = {int(m["attrs"]["data-config"]): float(m["attrs"]["data-" + key])
               for m in dom.marks(chart)}
        want = {i: float(field(configs[i])) for i in grid}
        check(len(dom.marks(chart)) == len(grid) and got == want, "%s: %s != %s" % (chart, got, want))
    want = {}
    for p in doc["service_times"] + doc["variant_service_times"]:
        for stage, v in (("pre", p["pre_s"]), ("job", p["job_s"][0]), ("post", p["post_s"])):
            if v > 0:
                want[(p["cores"], str(p["batch"]), p.get("variant", ""), stage)] = float(v)
    got = {tuple(m["attrs"]["data-" + k] for k in ("cores", "batch", "variant", "stage")):
           float(m["attrs"]["data-seconds"]) for m in dom.marks("serve-service-times")}
    check(got == want, "serve-service-times %s != %s" % (got, want))
    depth_ids = [e["attrs"]["id"] for e in dom.elements
                 if e["tag"] == "svg" and e["attrs"].get("id", "").startswith("serve-depth-")]
    check(len(depth_ids) > 0, "no queue depth chart")
    for id_ in depth_ids:
        samples = configs[int(id_[len("serve-depth-"):])]["depth"]
        for k, series in ((1, "submit"), (2, "in_system")):
            got = [attr_floats(m, "t", "value") for m in dom.marks(id_) if m["attrs"]["data-series"] == series]
            want = [(float(s[0]), float(s[k])) for s in samples]
            check(got == want, "%s %s: %s != %s" % (id_, series, got, want))
    for i, line in enumerate(doc["recommendations"]["text"]):
        note = dom.by_id("serve-recommendation-%d" % i)
        check(note is not None and note["text"] == line, "recommendation %d" % i)
    rows = [e for e in dom.elements if e["tag"] == "tr" and "table-configurations" in e["scopes"]][1:]
    check(len(rows) == len(configs), "table-configurations has %d rows, not %d" % (len(rows), len(configs)))
    check_axes(dom, "serve")
    check_common(dom, png)


def make_compare(path):
    def run(df, cycles, energy):
        return {"dataflow": df, "ok": True, "cycles": cycles, "seconds": cycles / 1e9,
                "energy_pj": energy, "utilization": 0.5, "dram_bytes": 1024}
    doc = {"schema_version": 1, "kind": "compare", "tool_version": "0.1.0",
           "arch": {"name": "gemmini", "hash": "ab"}, "mapper": {"objective": "latency"},
           "dataflows": ["ws", "os", "rs"],
           "workloads": [
               {"workload": "resnet50", "runs": [run("ws", 4.1e9, 9.2e11), run("os", 4.4e9, 8.1e11),
                                                 {"dataflow": "rs", "ok": False, "reason": "systolic only"}],
                "winners": {"latency": "ws", "energy": "os"}},
               {"workload": "gpt2-small", "runs": [run("ws", 2.1e6, 3e8), run("os", 1.9e6, 2.5e8)],
                "winners": {"latency": "os", "energy": "os"}}]}
    json.dump(doc, open(path, "w"), indent=2)


def check_compare(path, dom_path, png):
    """One panel per workload, each on its own axis from 0, so neither workload is flat."""
    doc = json.load(open(path))
    dom = Dom(open(dom_path, encoding="utf-8").read())
    for metric, chart in (("cycles", "chart-compare-cycles"), ("energy_pj", "chart-compare-energy")):
        want = {(w["workload"], r["dataflow"]): float(r[metric]) for w in doc["workloads"]
                for r in w["runs"] if r["ok"]}
        got = {(m["attrs"]["data-workload"], m["attrs"]["data-dataflow"]): float(m["attrs"]["data-" + metric])
               for m in dom.marks(chart)}
        check(got == want, "%s: %s != %s" % (chart, got, want))
        svg = dom.by_id(chart)
        panels = dom.inside(svg, "panel") if svg else []
        check(len(panels) == len(doc["workloads"]), "%s has %d panels" % (chart, len(panels)))
        for panel in panels:
            axes = [a for a in dom.inside(panel, "axis") if a["attrs"].get("data-axis-role") == "value"]
            top = max(float(m["attrs"]["data-" + metric]) for m in dom.inside(panel, "mark"))
            check(len(axes) == 1 and top >= 0.5 * float(axes[0]["attrs"]["data-axis-max"]),
                  "%s panel %s is not on its own scale" % (chart, panel["attrs"].get("data-panel")))
    check_axes(dom, "compare")
    check_common(dom, png)


def main(argv):
    if argv[1] in ("make-sweep", "make-compare"):
        (make_sweep if argv[1] == "make-sweep" else make_compare)(argv[2])
        return 0
    {"run": check_run, "sweep": check_sweep, "serve": check_serve,
     "compare": check_compare}[argv[1]](*argv[2:5])
    for f in FAILURES:
        print("FAIL:", f)
    print("%d failed checks" % len(FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
