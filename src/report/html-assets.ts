/**
 * The inline style and script of the HTML report (./html.ts). The script reads the page's JSON
 * data blocks and builds everything with DOM methods and textContent: no capture string is ever
 * parsed as HTML. It uses no network and no library.
 */

export const HTML_STYLE = String.raw`
:root { --fg:#1d2330; --muted:#5b6474; --line:#d9dde5; --bg:#fff; --alt:#f5f7fa; --red:#b42318; --yellow:#946200; --green:#177245; --blue:#1f4fbf; --mark:#ffe58a; }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color:var(--fg); background:var(--bg); }
header { padding:12px 20px; border-bottom:1px solid var(--line); background:var(--alt); }
h1 { font-size:18px; margin:0 0 4px; } h2 { font-size:16px; margin:20px 0 8px; } h3 { font-size:14px; margin:14px 0 6px; }
main { padding:0 20px 40px; }
table { border-collapse:collapse; margin:4px 0 12px; }
th, td { border:1px solid var(--line); padding:3px 8px; text-align:left; vertical-align:top; }
th { background:var(--alt); font-weight:600; }
td.n { text-align:right; font-variant-numeric:tabular-nums; }
.grid { display:flex; flex-wrap:wrap; gap:24px; }
.grid > div { max-width:100%; overflow:auto; }
.badge { display:inline-block; padding:0 6px; border-radius:8px; font-size:12px; font-weight:600; color:#fff; }
.error { background:var(--red); } .warning { background:var(--yellow); } .note { background:var(--blue); }
.muted { color:var(--muted); }
.controls { display:flex; flex-wrap:wrap; gap:8px; align-items:center; margin:8px 0; }
.controls select, .controls input { font:inherit; padding:2px 4px; max-width:260px; }
#findings tr.finding { cursor:pointer; }
#findings tr.finding:hover, #findings tr.finding:focus { background:#eef3ff; outline:none; }
#findings tr.selected { background:#dce7ff; }
#detail { border:1px solid var(--line); padding:8px 14px; margin-top:12px; background:#fcfcfd; }
pre { white-space:pre-wrap; word-break:break-word; background:var(--alt); padding:8px; border:1px solid var(--line); max-height:420px; overflow:auto; margin:4px 0; }
mark { background:var(--mark); color:inherit; outline:1px solid #e0b400; }
.pager button { font:inherit; }
svg text { font:11px system-ui, sans-serif; fill:var(--muted); }
`;

export const HTML_SCRIPT = String.raw`
(function () {
  'use strict';
  var PAGE = 50;
  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) {
      if (k === 'text') e.textContent = attrs[k];
      else if (k === 'cls') e.className = attrs[k];
      else e.setAttribute(k, attrs[k]);
    }
    (kids || []).forEach(function (c) { if (c !== null && c !== undefined) e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return e;
  }
  var summary = JSON.parse($('guard-summary').textContent);
  var entries = [], byIndex = {};
  Array.prototype.forEach.call(document.querySelectorAll('script.guard-data'), function (s) {
    JSON.parse(s.textContent).forEach(function (e) {
      if (e.dup !== undefined) {
        var t = byIndex[e.dup];
        if (!t) return;
        t.count++;
        if (t.locations.length < 200) t.locations.push({ file: e.file, line: e.line, id: e.id });
        t.files[e.file] = true;
        return;
      }
      e.count = 1; e.locations = [{ file: e.file, line: e.line, id: e.id }]; e.files = {}; e.files[e.file] = true;
      e.rules = e.findings.map(function (f) { return f.rule_id; });
      e.level = e.findings.some(function (f) { return f.level === 'error' && !f.suppressed; }) ? 'error' : e.findings.some(function (f) { return f.level === 'warning' && !f.suppressed; }) ? 'warning' : 'note';
      e.search = [e.file, e.id, e.model, e.family, e.reason, e.detail, e.text].concat(e.rules, e.hits.map(function (h) { return h.excerpt + ' ' + h.tool; }), e.findings.map(function (f) { return f.message; })).join('\n').toLowerCase();
      byIndex[e.i] = e; entries.push(e);
    });
  });
  var T = summary.totals;
  var findingsTotal = entries.reduce(function (n, e) { return n + e.count; }, 0);
  $('status').textContent = T.replies + ' replies in ' + T.files + ' files · ' + findingsTotal + ' replies with findings (' + entries.length + ' distinct) · rule hits ' + T.hits + ', refused leaks ' + T.refused + ', recovered ' + T.recovered + ', beside structured calls ' + T.beside_structured + ', quotations ' + T.quotations + ' · problems ' + T.errors + ' errors, ' + T.warnings + ' warnings · exit ' + summary.exit_code + (summary.interrupted ? ' · INTERRUPTED: partial results' : '') + ' · guard ' + summary.version + ', ' + summary.generated;
  var staticReport = document.getElementById('static-report');
  if (staticReport) staticReport.hidden = true; // the script's own tables replace the static ones
  var app = $('app');

  function crossTable(title, rowName, counts, columns) {
    var rows = Object.keys(counts);
    if (!rows.length) return null;
    if (!columns) { var cs = {}; rows.forEach(function (r) { for (var c in counts[r]) cs[c] = true; }); columns = Object.keys(cs).sort(); }
    var total = function (r) { var n = 0; for (var c in counts[r]) n += counts[r][c]; return n; };
    rows.sort(function (a, b) { return total(b) - total(a) || (a < b ? -1 : 1); });
    var head = el('tr', null, [el('th', { text: rowName })].concat(columns.map(function (c) { return el('th', { text: c }); })));
    var body = rows.slice(0, 200).map(function (r) {
      return el('tr', null, [el('td', { text: r })].concat(columns.map(function (c) { return el('td', { cls: 'n', text: String(counts[r][c] || '') }); })));
    });
    return el('div', null, [el('h3', { text: title }), el('table', { 'data-table': title }, [el('thead', null, [head]), el('tbody', null, body)])]);
  }

  function histogram() {
    var h = summary.histogram, bins = h.bins, series = h.series, names = ['recovered', 'refused', 'beside calls', 'quotation', 'none'];
    var colors = { recovered: '#177245', refused: '#b42318', 'beside calls': '#7a3fb0', quotation: '#c98e00', none: '#8a93a3' };
    var W = 640, H = 170, pad = 28, bw = (W - 2 * pad) / bins, max = 1;
    for (var i = 0; i < bins; i++) { var s = 0; names.forEach(function (n) { s += (series[n] || [])[i] || 0; }); if (s > max) max = s; }
    var NS = 'http://www.w3.org/2000/svg';
    function svg(tag, a, text) { var e = document.createElementNS(NS, tag); for (var k in a) e.setAttribute(k, a[k]); if (text !== undefined) e.textContent = text; return e; }
    var root = svg('svg', { width: W, height: H + 30, viewBox: '0 0 ' + W + ' ' + (H + 30), role: 'img', id: 'histogram' });
    root.appendChild(svg('title', {}, 'Replies with markup by prose ratio; the line is the prose ceiling'));
    for (var b = 0; b < bins; b++) {
      var y = H;
      names.forEach(function (n) {
        var v = (series[n] || [])[b] || 0;
        if (!v) return;
        var hh = (H - 10) * v / max;
        y -= hh;
        var r = svg('rect', { x: pad + b * bw + 1, y: y, width: Math.max(1, bw - 2), height: hh, fill: colors[n] });
        r.appendChild(svg('title', {}, n + ': ' + v + ' (prose ' + (b / bins).toFixed(2) + '–' + ((b + 1) / bins).toFixed(2) + ')'));
        root.appendChild(r);
      });
    }
    root.appendChild(svg('line', { x1: pad, y1: H, x2: W - pad, y2: H, stroke: '#5b6474' }));
    [0, 0.25, 0.5, 0.75, 1].forEach(function (t) { root.appendChild(svg('text', { x: pad + t * (W - 2 * pad) - 8, y: H + 14 }, String(t))); });
    if (summary.prose_ceiling !== null) {
      var x = pad + summary.prose_ceiling * (W - 2 * pad);
      root.appendChild(svg('line', { x1: x, y1: 4, x2: x, y2: H, stroke: '#1f4fbf', 'stroke-width': 2, 'stroke-dasharray': '5 3', id: 'ceiling-line' }));
      root.appendChild(svg('text', { x: x + 4, y: 14 }, 'ceiling ' + summary.prose_ceiling));
    }
    var legend = el('p', { cls: 'muted' }, names.map(function (n) { return el('span', null, [el('span', { style: 'color:' + colors[n] }, ['■']), ' ' + n + '   ']); }));
    return el('div', null, [el('h3', { text: 'Prose ratio of replies with markup' }), root, legend, el('p', { cls: 'muted', text: 'Replies near the ceiling are the borderline ones worth a human look: at or below it a leak is recovered, above it markup is judged a quotation (prose).' })]);
  }

  var filesTable = (function () {
    var files = summary.files.filter(function (f) { return f.findings || f.problems; }).sort(function (a, b) { return b.findings - a.findings || b.problems - a.problems; });
    var rows = files.slice(0, 200).map(function (f) { return el('tr', null, [el('td', { text: f.file }), el('td', { text: f.formats.join(', ') }), el('td', { cls: 'n', text: String(f.replies) }), el('td', { cls: 'n', text: String(f.findings) }), el('td', { cls: 'n', text: String(f.problems) })]); });
    var clean = summary.files.length - files.length;
    return el('div', null, [el('h3', { text: 'Files' }), el('table', { 'data-table': 'files' }, [el('thead', null, [el('tr', null, ['file', 'formats', 'replies', 'findings', 'problems'].map(function (h) { return el('th', { text: h }); }))]), el('tbody', null, rows)]), el('p', { cls: 'muted', text: clean + ' files without findings or problems' + (files.length > 200 ? '; ' + (files.length - 200) + ' more files with findings not listed' : '') })]);
  })();

  app.appendChild(el('h2', { text: 'Summary' }));
  app.appendChild(el('div', { cls: 'grid' }, [
    crossTable('Models × outcome', 'model', summary.models, ['clean', 'rule hit', 'blocked', 'leak recovered', 'leak refused', 'markup beside calls', 'quotation'].filter(function (c) { return Object.keys(summary.models).some(function (m) { return summary.models[m][c]; }); })),
    crossTable('Families × reason', 'family', summary.families),
    crossTable('Rules × action', 'rule', summary.rules),
    histogram(),
    filesTable,
  ]));
  if (summary.problems.length) {
    app.appendChild(el('h3', { text: 'Input problems' }));
    app.appendChild(el('table', { 'data-table': 'problems' }, [el('tbody', null, summary.problems.map(function (p) { return el('tr', null, [el('td', { text: p.file + (p.line === null ? '' : ':' + p.line) }), el('td', { text: p.severity + ' ' + p.code }), el('td', { text: p.message })]); }))]));
    if (summary.more_problems) app.appendChild(el('p', { cls: 'muted', text: summary.more_problems + ' more problems not listed' }));
  }

  // findings: filters, search, a paginated list, one finding shown at a time
  app.appendChild(el('h2', { text: 'Findings' }));
  function options(values) { var seen = {}; values.forEach(function (v) { if (v !== null && v !== undefined && v !== '') seen[v] = (seen[v] || 0) + 1; }); return Object.keys(seen).sort(); }
  var filters = {
    rule: options([].concat.apply([], entries.map(function (e) { return e.rules; }))),
    family: options(entries.map(function (e) { return e.family; })),
    reason: options(entries.map(function (e) { return e.outcome === 'none' ? null : e.reason; })),
    model: options(entries.map(function (e) { return e.model; })),
    file: options([].concat.apply([], entries.map(function (e) { return Object.keys(e.files); }))),
  };
  var controls = el('div', { cls: 'controls' });
  Object.keys(filters).forEach(function (k) {
    var s = el('select', { id: 'filter-' + k, 'aria-label': k }, [el('option', { value: '', text: 'any ' + k })].concat(filters[k].map(function (v) { return el('option', { value: v, text: v }); })));
    s.addEventListener('change', function () { page = 0; render(); });
    controls.appendChild(s);
  });
  var search = el('input', { id: 'search', type: 'search', placeholder: 'search text, ids, excerpts…', 'aria-label': 'search' });
  search.addEventListener('input', function () { page = 0; render(); });
  controls.appendChild(search);
  var count = el('span', { id: 'count', cls: 'muted' });
  controls.appendChild(count);
  app.appendChild(controls);
  var tbody = el('tbody');
  app.appendChild(el('table', { id: 'findings' }, [el('thead', null, [el('tr', null, ['level', 'where', 'reply', 'model', 'rule / verdict', '×', 'excerpt'].map(function (h) { return el('th', { text: h }); }))]), tbody]));
  var pager = el('div', { cls: 'pager' });
  app.appendChild(pager);
  var detail = el('section', { id: 'detail', hidden: 'hidden' });
  app.appendChild(detail);
  var page = 0, selected = null;

  function matches(e) {
    var v = function (k) { return $('filter-' + k).value; };
    if (v('rule') && e.rules.indexOf(v('rule')) < 0) return false;
    if (v('family') && e.family !== v('family')) return false;
    if (v('reason') && (e.outcome === 'none' || e.reason !== v('reason'))) return false;
    if (v('model') && e.model !== v('model')) return false;
    if (v('file') && !e.files[v('file')]) return false;
    var q = search.value.trim().toLowerCase();
    return !q || e.search.indexOf(q) >= 0;
  }
  function excerptOf(e) {
    if (e.hits.length) return e.hits[0].tool + ': ' + e.hits[0].excerpt;
    var c = e.calls[0] || e.candidates[0];
    if (c) return c.name + ' ' + c.arguments.slice(0, 120);
    return e.detail;
  }
  function verdictOf(e) {
    return e.findings.map(function (f) { return f.rule_id + (f.suppressed ? ' (suppressed)' : ''); }).join(', ');
  }
  function render() {
    var list = entries.filter(matches);
    var pages = Math.max(1, Math.ceil(list.length / PAGE));
    if (page >= pages) page = pages - 1;
    count.textContent = list.length + ' of ' + entries.length + ' findings shown';
    tbody.textContent = '';
    list.slice(page * PAGE, page * PAGE + PAGE).forEach(function (e) {
      var tr = el('tr', { cls: 'finding' + (selected === e ? ' selected' : ''), tabindex: '0', 'data-index': String(e.i) }, [
        el('td', null, [el('span', { cls: 'badge ' + e.level, text: e.level })]),
        el('td', { text: e.file + ':' + e.line }),
        el('td', { text: e.id === null ? '-' : e.id }),
        el('td', { text: e.model === null ? '-' : e.model }),
        el('td', { text: verdictOf(e) }),
        el('td', { cls: 'n', text: e.count > 1 ? '×' + e.count : '' }),
        el('td', { cls: 'muted', text: excerptOf(e).slice(0, 140) }),
      ]);
      var open = function () { selected = e; show(e); Array.prototype.forEach.call(tbody.children, function (r) { r.classList.toggle('selected', r === tr); }); };
      tr.addEventListener('click', open);
      tr.addEventListener('keydown', function (ev) { if (ev.key === 'Enter') open(); });
      tbody.appendChild(tr);
    });
    pager.textContent = '';
    var prev = el('button', { id: 'prev', text: '‹ previous' }), next = el('button', { id: 'next', text: 'next ›' });
    if (page === 0) prev.disabled = true;
    if (page >= pages - 1) next.disabled = true;
    prev.addEventListener('click', function () { page--; render(); });
    next.addEventListener('click', function () { page++; render(); });
    pager.appendChild(prev); pager.appendChild(el('span', { id: 'page', text: ' page ' + (page + 1) + ' of ' + pages + ' ' })); pager.appendChild(next);
  }

  // the spans of the reply text to highlight: the calls' argument texts and markup tokens
  var TOKEN = /<[|｜][^<>\n]{0,80}?[|｜]>|<\/?[A-Za-z_][\w:.-]{0,40}(?:[=\s][^<>\n]{0,200})?>|\[\/?[A-Z][A-Z_]{2,30}\]|<\|[a-z_]{2,30}\|>/g;
  function highlight(text, e) {
    var spans = [], m;
    TOKEN.lastIndex = 0;
    while ((m = TOKEN.exec(text)) !== null) { spans.push([m.index, m.index + m[0].length]); if (spans.length > 2000) break; }
    e.calls.concat(e.candidates).forEach(function (c) {
      var a = c.arguments.replace(/…$/, '');
      if (a.length < 2) return;
      var at = text.indexOf(a);
      if (at >= 0) spans.push([at, at + a.length]);
    });
    spans.sort(function (a, b) { return a[0] - b[0]; });
    var merged = [];
    spans.forEach(function (s) { var last = merged[merged.length - 1]; if (last && s[0] < last[1]) last[1] = Math.max(last[1], s[1]); else merged.push([s[0], s[1]]); });
    var pre = el('pre', { id: 'reply-text' }), pos = 0;
    merged.forEach(function (s) {
      if (s[0] > pos) pre.appendChild(document.createTextNode(text.slice(pos, s[0])));
      pre.appendChild(el('mark', { text: text.slice(s[0], s[1]) }));
      pos = s[1];
    });
    if (pos < text.length) pre.appendChild(document.createTextNode(text.slice(pos)));
    return pre;
  }
  function callsTable(title, calls, id) {
    if (!calls.length) return null;
    return el('div', { id: id }, [el('h3', { text: title }), el('table', null, [el('tbody', null, calls.map(function (c) {
      return el('tr', null, [el('td', { text: c.name || '?' }), el('td', null, [el('pre', { text: c.arguments }), c.error ? el('div', { cls: 'muted', text: 'arguments: ' + c.error }) : null])]);
    }))])]);
  }
  // a rule's ATT&CK technique (the rule catalogue's, never a capture's), linked to its page
  function attackOf(rule) {
    var info = summary.rule_info[rule];
    if (!info || !info.attack) return null;
    return el('span', { cls: 'muted attack' }, [' (ATT&CK ', info.attack_url ? el('a', { href: info.attack_url, rel: 'noreferrer', target: '_blank', text: info.attack }) : info.attack, ')']);
  }
  function show(e) {
    detail.textContent = '';
    detail.hidden = false;
    detail.appendChild(el('h2', { text: e.file + ':' + e.line + (e.id === null ? '' : ' · reply ' + e.id) }));
    detail.appendChild(el('p', { cls: 'muted', text: 'format ' + e.format + ' · model ' + (e.model || '-') + ' · recovery ' + e.outcome + ' (' + e.reason + (e.family ? ', ' + e.family : '') + (e.prose_ratio === null ? '' : ', prose ' + e.prose_ratio) + ')' + (e.failing ? ' · fails the scan' : '') }));
    detail.appendChild(el('p', { id: 'detail-sentence', text: e.detail }));
    detail.appendChild(el('h3', { text: 'Findings' }));
    detail.appendChild(el('ul', { id: 'detail-findings' }, e.findings.map(function (f) {
      var info = summary.rule_info[f.rule_id];
      return el('li', null, [el('span', { cls: 'badge ' + f.level, text: f.level }), ' ', info && info.help_uri ? el('a', { href: info.help_uri, rel: 'noreferrer', target: '_blank', text: f.rule_id }) : el('b', { text: f.rule_id }), attackOf(f.rule_id), ': ' + f.message + (f.suppressed ? ' (suppressed: ' + f.suppressed.kind + ', ' + f.suppressed.justification + ')' : '')]);
    })));
    if (e.hits.length) {
      detail.appendChild(el('h3', { text: 'Rule hits' }));
      detail.appendChild(el('table', { id: 'detail-hits' }, [el('tbody', null, e.hits.map(function (h) {
        return el('tr', null, [el('td', null, [h.rule, attackOf(h.rule)]), el('td', { text: h.action }), el('td', { text: h.category }), el('td', { text: h.tool + (h.call_id ? '#' + h.call_id : '') }), el('td', { text: 'via ' + h.via }), el('td', null, [el('code', { text: h.excerpt })])]);
      }))]));
    }
    [callsTable('Recovered calls', e.calls, 'detail-calls'), callsTable('Candidate calls (refused, never dispatched)', e.candidates, 'detail-candidates'), callsTable('Structured tool calls', e.tool_calls, 'detail-tool-calls')].forEach(function (t) { if (t) detail.appendChild(t); });
    detail.appendChild(el('h3', { text: 'Reply text' + (e.text_length > e.text.length ? ' (characters ' + e.text_offset + '–' + (e.text_offset + e.text.length) + ' of ' + e.text_length + ')' : '') + (summary.redacted ? ', secrets masked' : '') }));
    detail.appendChild(e.text ? highlight(e.text, e) : el('p', { cls: 'muted', text: '(no visible text)' }));
    if (e.count > 1) {
      detail.appendChild(el('h3', { text: 'Seen ' + e.count + ' times' + (e.locations.length < e.count ? ' (first ' + e.locations.length + ' listed)' : '') }));
      detail.appendChild(el('ul', { id: 'detail-locations' }, e.locations.map(function (l) { return el('li', { text: l.file + ':' + l.line + (l.id === null ? '' : ' reply ' + l.id) }); })));
    }
    detail.scrollIntoView({ block: 'nearest' });
  }
  render();
  document.body.setAttribute('data-ready', 'true');
})();
`;
