#!/usr/bin/python3
"""Checks a report as Chromium rendered it (its --dump-dom output) against the input it came from.

  check_report_dom.py make-sweep DIR            write a sweep fixture directory
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
             "parent": self.stack[-1] if self.stack else None}
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
    rows = [e for e in dom.elements if e["tag"] == "tr" and "table-layers" in e["scopes"]][1:]
    check(len(rows) == len(run["ops"]), "table-layers has %d rows, ops %d" % (len(rows), len(run["ops"])))
    cells = [e for e in dom.elements if e["tag"] == "td" and "table-layers" in e["scopes"]]
    ncol = len(cells) // max(1, len(rows))
    for i, op in enumerate(run["ops"][:len(rows)]):
        check(cells[i * ncol + 1]["attrs"]["data-value"] == op["name"], "layer %d name" % i)
        check(float(cells[i * ncol + 5]["attrs"]["data-value"]) == op["cycles"], "layer %d cycles" % i)
    check_common(dom, png)


def fixture_points():
    pts, index = [], 0
    for w in ("gpt2-small", "bert-base"):
        for sp in (16, 64, 256):
            for acc in (64, 256):
                for seq in (64, 128):
                    p = {"index": index, "id": "p%d" % index,
                         "params": {"scratchpad.capacity": "%dKiB" % sp,
                                    "accumulator.capacity": "%dKiB" % acc, "workload": w,
                                    "workload.seq": seq},
                         "numeric": {"scratchpad.capacity": sp * 1024,
                                     "accumulator.capacity": acc * 1024, "workload.seq": seq}}
                    if index == 1:
                        p.update(status="failed", error_kind="infeasible",
                                 error="infeasible: no mapping for op 'h0.attn.qkv': too small")
                    else:
                        cyc = (1e6 + 3e7 / sp + 1e7 / acc) * seq / 64.0 * (1.5 if w == "bert-base" else 1)
                        sram = (sp + acc) * 1024
                        p.update(status="ok", metrics={
                            "cycles": cyc, "seconds": cyc / 1e9, "energy_pj": cyc * 2.5 + sram * 4,
                            "utilization": 0.5, "sram_bytes": sram,
                            "by_class": {"MatMul": cyc * 0.75, "Softmax": cyc * 0.25}})
                    pts.append(p)
                    index += 1
    return pts


def make_sweep(d):
    os.makedirs(d, exist_ok=True)
    pts = fixture_points()
    meta = {"schema": "tessel.sweep/1", "name": "sram", "spec": "configs/sweeps/x.yaml",
            "spec_hash": "abc", "base_arch": "configs/arch/gemmini-default.yaml",
            "engine": "analytical", "total_points": len(pts),
            "keys": ["scratchpad.capacity", "accumulator.capacity", "workload", "workload.seq"],
            "metrics": ["cycles", "seconds", "energy_pj", "utilization", "sram_bytes", "by_class"]}
    json.dump(meta, open(os.path.join(d, "sweep.json"), "w"), indent=2)
    with open(os.path.join(d, "results.jsonl"), "w") as f:
        for p in pts:
            f.write(json.dumps(p) + "\n")


def check_sweep(d, dom_path, png):
    dom = Dom(open(dom_path, encoding="utf-8").read())
    pts = [json.loads(line) for line in open(os.path.join(d, "results.jsonl"))]
    keys = ["scratchpad.capacity", "accumulator.capacity", "workload.seq"]
    for w, name in enumerate(("gpt2-small", "bert-base")):
        ok = [p for p in pts if p["status"] == "ok" and p["params"]["workload"] == name]
        for a in range(3):
            for b in range(a + 1, 3):
                want = {}
                for p in ok:
                    k = (float(p["numeric"][keys[a]]), float(p["numeric"][keys[b]]))
                    want[k] = min(want.get(k, float("inf")), p["metrics"]["cycles"])
                cid = "sweep-%d-heatmap-%d-%d" % (w, a, b)
                got = {(float(m["attrs"]["data-x"]), float(m["attrs"]["data-y"])):
                       float(m["attrs"]["data-value"]) for m in dom.marks(cid)}
                check(len(dom.marks(cid)) == len(want) and got == want, "%s cells differ" % cid)
        front = set()
        for p in ok:
            px, py = p["metrics"]["sram_bytes"], p["metrics"]["cycles"]
            if not any(q["metrics"]["sram_bytes"] <= px and q["metrics"]["cycles"] <= py and
                       (q["metrics"]["sram_bytes"] < px or q["metrics"]["cycles"] < py) for q in ok):
                front.add(p["index"])
        cid = "sweep-%d-pareto-sram" % w
        got = {int(m["attrs"]["data-index"]) for m in dom.marks(cid) if m["attrs"]["data-front"] == "1"}
        check(got == front, "%s front %s != %s" % (cid, sorted(got), sorted(front)))
        check(len(dom.marks(cid)) == len(ok), "%s plots %d points, %d ran" % (cid, len(dom.marks(cid)), len(ok)))
        check(dom.by_id("sweep-%d-pareto-energy" % w) is not None, "no energy front for " + name)
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
    check(any("failed" in r["text"] and "no mapping" in r["text"] for r in rows), "failure not listed")
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
    check_common(dom, png)


def main(argv):
    if argv[1] == "make-sweep":
        make_sweep(argv[2])
        return 0
    {"run": check_run, "sweep": check_sweep, "serve": check_serve}[argv[1]](*argv[2:5])
    for f in FAILURES:
        print("FAIL:", f)
    print("%d failed checks" % len(FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
