// The inline style sheet and the small table-sorting script of the HTML report.
#pragma once

namespace tessel::reports::html {

inline constexpr const char* kReportCss = R"css(
body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 0 auto;
       max-width: 1100px; padding: 16px 24px; color: #222; background: #fff; }
h1 { font-size: 1.6em; margin: 0.2em 0; }
h2 { border-bottom: 2px solid #4e79a7; padding-bottom: 4px; margin-top: 1.6em; }
h3 { font-size: 1.05em; }
dl.meta { display: grid; grid-template-columns: max-content auto; gap: 2px 16px; font-size: 0.9em; }
dl.meta dt { color: #666; } dl.meta dd { margin: 0; }
.headlines { display: flex; flex-wrap: wrap; gap: 12px; margin: 16px 0; }
.headline { border: 1px solid #ddd; border-radius: 6px; padding: 8px 14px; min-width: 120px;
            background: #f7f9fc; }
.headline .value { font-size: 1.3em; font-weight: 600; } .headline .label { color: #666; font-size: 0.85em; }
nav ul { list-style: none; padding: 0; display: flex; gap: 16px; flex-wrap: wrap; }
figure { margin: 18px 0; } figcaption { font-weight: 600; margin-bottom: 4px; }
.caption { color: #555; font-size: 0.9em; margin: 2px 0 0; }
svg.chart { max-width: 100%; height: auto; font-size: 12px; }
svg.chart text { fill: #333; } svg.chart .axis-label { font-weight: 600; }
svg.chart .cell-label { font-size: 11px; } svg.chart text.cell-label[fill="#fff"] { fill: #fff; }
svg.chart .grid { stroke: #e5e5e5; } svg.chart .mark:hover { stroke: #000; stroke-width: 1.5; }
svg.chart .line { stroke-width: 2; }
svg.chart .dominated { fill: #bbb; } svg.chart .front { fill: #d62728; stroke: #fff; }
svg.chart .front-line { stroke: #d62728; stroke-width: 1.5; stroke-dasharray: 4 2; }
svg.chart .series { stroke-width: 2; } svg.chart .line { fill: none; }
svg.chart .front-ringed { stroke: #000; stroke-width: 2.5; } svg.chart .shaded { stroke: #fff; }
svg.chart .axis-line { stroke: #666; } svg.chart .panel-title { font-weight: 600; }
.panels { display: flex; flex-wrap: wrap; gap: 8px; }
.panels svg.chart { max-width: calc(50% - 8px); }
.note { background: #fffbe6; border-left: 4px solid #edc948; padding: 6px 10px; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; font-size: 0.85em; margin: 8px 0 16px; }
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; white-space: nowrap; }
th { background: #f0f3f7; cursor: pointer; } td.num, th.num { text-align: right; }
tbody tr:nth-child(even) { background: #fafafa; }
a.csv { font-weight: normal; font-size: 0.85em; margin-left: 10px; }
)css";

// Clicking a heading sorts its table by that column (numbers by value); again reverses.
inline constexpr const char* kReportScript = R"js(
document.querySelectorAll('table.sortable th').forEach(function (th, _) {
  th.addEventListener('click', function () {
    var table = th.closest('table'), body = table.tBodies[0];
    var col = Array.prototype.indexOf.call(th.parentNode.children, th);
    var numeric = th.hasAttribute('data-numeric'), up = th.getAttribute('data-sort') !== 'up';
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[col].getAttribute('data-value'), y = b.cells[col].getAttribute('data-value');
      var c = numeric ? (parseFloat(x) || 0) - (parseFloat(y) || 0) : x.localeCompare(y);
      return up ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    th.setAttribute('data-sort', up ? 'up' : 'down');
  });
});
)js";

}  // namespace tessel::reports::html
