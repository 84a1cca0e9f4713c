"""The site's one stylesheet and one script, written to ``assets/``: no framework, no build step.

The script only loads a vector's drill-down data on demand: a ``<script src>`` data file that
calls ``phase6Vector(...)`` (``fetch`` of a ``file://`` URL fails in Chromium), and renders it
with ``textContent`` only, so nothing an implementation sent is ever parsed as HTML.
"""

from __future__ import annotations

__all__ = ["CSS", "JS"]

CSS = """\
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#222}
header{background:#263238;color:#fff;padding:.6em 1.2em}
header a{color:#cfd8dc;margin-right:1em;text-decoration:none}
header a.here{color:#fff;font-weight:600;border-bottom:2px solid #fff}
header .profiles{float:right}
main{padding:1em 1.2em}
h1{font-size:1.4em;margin:.2em 0 .6em}
h2{font-size:1.15em;margin:1.4em 0 .4em}
table{border-collapse:collapse;margin:.4em 0}
th,td{border:1px solid #ddd;padding:.25em .5em;vertical-align:top;text-align:left}
th{background:#f5f5f5;position:sticky;top:0}
td.num{text-align:right}
.compliant{background:#e3f2e6}.compliant-required-only{background:#fff4d6}
.partial{background:#eeeeee}
.non-compliant{background:#fde3e3}.adapter-broken{background:#e0e0e0}
.pass{background:#e3f2e6}.fail{background:#fde3e3}.none{color:#999}
.alt{background:#fff4d6;font-weight:600}.pinned{color:#2e7d32}
.disagree th.entry{border-left:4px solid #b58105}
code,pre{font:12px/1.35 ui-monospace,monospace}
pre{background:#f7f7f7;padding:.5em;overflow:auto;max-height:30em;white-space:pre-wrap}
.add{color:#1b5e20}.del{color:#b71c1c}
.note{color:#555}
#drill{border:1px solid #bbb;padding:.6em;margin:.6em 0;background:#fcfcfc}
.chart text{font-size:11px}
"""

JS = """\
(function () {
  "use strict";
  var panel = document.getElementById("drill");
  if (!panel) { return; }
  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    if (cls) { node.className = cls; }
    return node;
  }
  function diff(text) {
    var pre = el("pre");
    String(text).split("\\n").forEach(function (line, i) {
      if (i) { pre.appendChild(document.createTextNode("\\n")); }
      var c = line.charAt(0) === "+" ? "add" : line.charAt(0) === "-" ? "del" : "";
      pre.appendChild(c ? el("span", line, c) : document.createTextNode(line));
    });
    return pre;
  }
  window.phase6Vector = function (data) {
    panel.textContent = "";
    panel.appendChild(el("h2", data.id));
    panel.appendChild(el("p", data.description, "note"));
    panel.appendChild(el("p", "level " + data.level + " · area " + data.area +
      " · clauses " + data.clauses.join(", ") + " · interpretations " +
      (data.interpretations.join(", ") || "none")));
    var missing = "(not in this build's corpus)";
    panel.appendChild(el("h3", "Input"));
    panel.appendChild(el("pre", data.input === null ? missing : data.input));
    panel.appendChild(el("h3", "Expected"));
    panel.appendChild(el("pre", data.expected === null ? missing : data.expected));
    panel.appendChild(el("h3", "Each implementation (newest version)"));
    var table = el("table");
    var head = el("tr");
    ["implementation", "version", "outcome", "actual and diff"].forEach(function (h) {
      head.appendChild(el("th", h));
    });
    table.appendChild(head);
    data.implementations.forEach(function (impl) {
      var css = impl.outcome === "passed" ? "pass" : impl.outcome === "not run" ? "none" : "fail";
      var row = el("tr", null, css);
      row.appendChild(el("td", impl.name));
      row.appendChild(el("td", impl.version));
      row.appendChild(el("td", impl.outcome));
      var cell = el("td");
      if (impl.error) { cell.appendChild(el("pre", impl.error)); }
      impl.failures.forEach(function (f) {
        cell.appendChild(el("div", "[" + f.kind + "] " + f.message));
        if (f.actual !== null) { cell.appendChild(el("div", "actual: " + f.actual)); }
        if (f.diff) { cell.appendChild(diff(f.diff)); }
      });
      if (impl.outcome === "passed") { cell.appendChild(el("span", "as expected", "note")); }
      row.appendChild(cell);
      table.appendChild(row);
    });
    panel.appendChild(table);
    panel.setAttribute("data-loaded", data.id);
  };
  function load() {
    var match = /^#v=(.+)$/.exec(location.hash);
    if (!match) { return; }
    var id = decodeURIComponent(match[1]);
    var rows = document.querySelectorAll("tr[data-vector]");
    for (var i = 0; i < rows.length; i += 1) {
      if (rows[i].getAttribute("data-vector") === id) {
        panel.textContent = "loading " + id + " …";
        var script = document.createElement("script");
        script.src = rows[i].getAttribute("data-src");
        script.onerror = function () { panel.textContent = "cannot load the data of " + id; };
        document.head.appendChild(script);
        return;
      }
    }
    panel.textContent = "no vector " + id;
  }
  window.addEventListener("hashchange", load);
  load();
}());
"""
