#!/usr/bin/env python3
"""Refreshes the "Every parameter" tables of docs/arch-yaml.md from `tessel arch schema`.

Every row `| `path` | need | ...` gets the schema's need column; a parameter the doc lacks is inserted
after the row of the parameter before it in the schema's order; a whole section the doc lacks is
appended at the end. Usage: scripts/arch_doc_rows.py build/apps/tessel/tessel docs/arch-yaml.md
"""
import re
import subprocess
import sys


def schema(tessel):
    text = subprocess.run([tessel, "arch", "schema"], check=True, capture_output=True, text=True).stdout
    params, sections, order = {}, {}, []
    section = None
    lines = text.splitlines()
    for i, line in enumerate(lines):
        head = re.match(r"^(\S.*?) - (required|optional): (.*)$", line)
        if head:
            section = head.group(1)
            sections[section] = (head.group(2), head.group(3))
            continue
        row = re.match(r"^  (\S+)  \[(.*?)\]  (.*)$", line)
        if row:
            desc = lines[i + 1].strip() if i + 1 < len(lines) else ""
            need = row.group(2)
            need = "**required**" if need == "required" else need.replace("default ", "default `", 1) + "`" \
                if need.startswith("default ") else need
            unit = re.sub(r", 0 or [0-9e.+-]+\.\.[0-9e.+-]+.*$", "", row.group(3))
            unit = re.sub(r", [0-9e.+-]+\.\.[0-9e.+-]+.*$", ", > 0", unit)
            params[row.group(1)] = (need, unit, desc, section)
            order.append(row.group(1))
    return params, sections, order


def row(path, p):
    return f"| `{path}` | {p[0]} | {p[1]} | {p[2]} |"


def main(tessel, doc_path):
    params, sections, order = schema(tessel)
    doc = open(doc_path).read().split("\n")
    index = {}
    start = doc.index("## Every parameter")
    for i, line in enumerate(doc[start:], start):
        m = re.match(r"^\| `([^`]+)` \| ([^|]*) \|(.*)$", line)
        if m and m.group(1) in params:
            # The need column from the schema; unit and description as written (they may say more).
            doc[i] = f"| `{m.group(1)}` | {params[m.group(1)][0]} |{m.group(3)}"
            index[m.group(1)] = i
    missing_sections = []
    for k, path in enumerate(order):
        if path in index:
            continue
        prev = next((order[j] for j in range(k - 1, -1, -1) if order[j] in index and
                     params[order[j]][3] == params[path][3]), None)
        if prev is None:
            if params[path][3] not in missing_sections:
                missing_sections.append(params[path][3])
            continue
        at = index[prev] + 1
        doc.insert(at, row(path, params[path]))
        index = {p: (i + 1 if i >= at else i) for p, i in index.items()}
        index[path] = at
    for s in missing_sections:
        need, desc = sections[s]
        doc += ["", f"### `{s}` — {need}", "", desc + ".", "", "| parameter | need | unit / type | description |",
                "|---|---|---|---|"] + [row(p, params[p]) for p in order if params[p][3] == s]
    open(doc_path, "w").write("\n".join(doc).rstrip("\n") + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
