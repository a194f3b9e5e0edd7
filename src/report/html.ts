/**
 * `report.html`: the run for people, one self-contained file (inline CSS and a few lines of script,
 * no fonts, images or requests): the counts, the route x behaviour-class matrix where each cell
 * opens its cases (outcome, verdict, expected, problems, evidence lines, the replay command), the
 * cases in no class, the startup-probe table, the certificates, the envelope drift lines and the run
 * faults. Rendered on the server side, so it reads without script too; the script only switches
 * which cell's cases are shown. Readers only: every verdict was made before.
 */
import type { Reporter } from './reporter.ts';
import { certificateCounts, certificates, isCertification } from './certificates.ts';
import { behaviourMatrix, BEHAVIOUR_CLASSES } from './matrix.ts';
import { writeOutput, type OutputOptions } from './output.ts';
import { columnTitle, startupSummaryLine } from './startupTable.ts';
import type { CaseResult, RunReport } from './types.ts';

/** Escape text for HTML element content and double-quoted attributes. */
function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** A DOM id from any text (route and class names hold `/` and `:`). */
function domId(prefix: string, text: string): string {
  return `${prefix}-${text.replace(/[^A-Za-z0-9_-]/g, (ch) => `_${ch.charCodeAt(0).toString(16)}`)}`;
}

const OUTCOME_LABEL: Record<CaseResult['outcome'], string> = { pass: 'PASS', fail: 'FAIL', error: 'ERROR', skip: 'SKIP' };

function caseBlock(c: CaseResult): string {
  const expected = c.expected ? `${c.expected.verdict}${c.expected.origin ? ` from ${c.expected.origin}` : ''}${c.expected.attempt !== undefined ? ` (attempt ${c.expected.attempt})` : ''}` : '(no expectation)';
  const verdict = c.verdict ? `${c.verdict.verdict}${c.verdict.verdict === 'accepted' ? ` from ${c.verdict.origin}` : ''}` : '(none)';
  const rows: string[] = [
    `<dt>verdict</dt><dd><code>${esc(verdict)}</code></dd>`,
    `<dt>expected</dt><dd><code>${esc(expected)}</code></dd>`,
    `<dt>route</dt><dd><code>${esc(c.route)}</code>, contract <code>${esc(c.contract)}</code>, ${esc(c.cli.name)} ${esc(c.cli.version)}, ${esc(c.source)}</dd>`,
    `<dt>file</dt><dd><code>${esc(c.file)}</code></dd>`,
  ];
  if (c.problems.length > 0) rows.push(`<dt>problems</dt><dd><ul>${c.problems.map((p) => `<li>${esc(p)}</li>`).join('')}</ul></dd>`);
  const evidence = c.verdict?.evidence ?? [];
  if (evidence.length > 0) rows.push(`<dt>evidence</dt><dd><pre class="evidence">${evidence.map(esc).join('\n')}</pre></dd>`);
  if (c.drift?.length) rows.push(`<dt>drift</dt><dd><ul>${c.drift.map((d) => `<li>${esc(d)}</li>`).join('')}</ul></dd>`);
  rows.push(`<dt>replay</dt><dd><code class="replay">${esc(c.replay)}</code></dd>`);
  return (
    `<article class="case ${c.outcome}" data-case="${esc(c.id)}" data-outcome="${c.outcome}">` +
    `<h4><span class="badge ${c.outcome}">${OUTCOME_LABEL[c.outcome]}</span> <code>${esc(c.id)}</code> ${esc(c.description)}</h4>` +
    `<dl>${rows.join('')}</dl></article>`
  );
}

/** Cases first that do not pass, then by id: what a reader opens a cell for. */
function ordered(cases: CaseResult[]): CaseResult[] {
  const rank = { error: 0, fail: 1, skip: 2, pass: 3 } as const;
  return [...cases].sort((a, b) => rank[a.outcome] - rank[b.outcome] || a.id.localeCompare(b.id));
}

function matrixSection(report: RunReport): { table: string; panels: string } {
  const m = behaviourMatrix(report.cases);
  if (m.routes.length === 0) return { table: '<p class="muted">No case is in a behaviour class.</p>', panels: '' };
  const tagsOf = new Map(BEHAVIOUR_CLASSES.map((b) => [b.name, b.tags]));
  const panels: string[] = [];
  const head = `<tr><th scope="col">route</th>${m.classes.map((c) => `<th scope="col">${esc(c)}</th>`).join('')}</tr>`;
  const body = m.routes.map((route) => {
    const cells = m.classes.map((cls) => {
      const cell = m.cell(route, cls);
      if (cell.total === 0) return '<td class="empty">&ndash;</td>';
      const id = domId('cell', `${route}|${cls}`);
      const tags = tagsOf.get(cls) ?? [];
      const cases = ordered(report.cases.filter((c) => c.route === route && tags.some((t) => c.tags.includes(t))));
      const state = cell.pass === cell.total ? 'ok' : cases.some((c) => c.outcome === 'fail' || c.outcome === 'error') ? 'bad' : 'partial';
      panels.push(
        `<section class="panel" id="${id}" hidden aria-label="${esc(`${route} ${cls}`)}">` +
          `<h3>${esc(route)} &middot; ${esc(cls)}: ${cell.pass}/${cell.total} passed</h3>${cases.map(caseBlock).join('')}</section>`,
      );
      return `<td class="${state}"><button type="button" class="cell" data-panel="${id}" aria-controls="${id}" aria-expanded="false" title="${esc(`${route} · ${cls}`)}">${cell.pass}/${cell.total}</button></td>`;
    });
    return `<tr><th scope="row"><code>${esc(route)}</code></th>${cells.join('')}</tr>`;
  });
  return { table: `<div class="scroll"><table class="matrix"><thead>${head}</thead><tbody>${body.join('')}</tbody></table></div>`, panels: panels.join('') };
}

function startupSection(report: RunReport): string {
  const t = report.startupProbes;
  if (!t) return '<p class="muted">No startup probe ran (no schema-flag CLI installed, or <code>--no-probes</code>).</p>';
  const columns = t.columns.filter((c) => c.installed);
  const missing = t.columns.filter((c) => !c.installed).map((c) => `<li>${esc(c.cli)}: ${esc(c.note)}</li>`).join('');
  let table = '<p class="muted">No schema-flag CLI was probed.</p>';
  if (columns.length > 0 && t.rows.length > 0) {
    const head = `<tr><th scope="col">schema or keyword</th><th scope="col">row</th>${columns.map((c) => `<th scope="col">${esc(columnTitle(c))}</th>`).join('')}</tr>`;
    const rows = t.rows.map((row) => {
      const cells = columns.map((col) => {
        const cell = row.cells.find((c) => c.cli === col.cli);
        if (!cell) return '<td class="empty">&ndash;</td>';
        const cls = cell.outcome === 'accepted' ? 'ok' : cell.outcome === 'fault' ? 'bad' : 'partial';
        const marks = [cell.listed === true ? 'sent here' : '', cell.agrees === false ? `disagrees with ${cell.profile ?? 'lint'}: expected ${cell.expected}` : ''].filter(Boolean);
        return `<td class="${cls}${cell.agrees === false ? ' disagree' : ''}">${esc(cell.outcome)}${cell.stage === 'provider' ? ' by the provider' : ''}${cell.message ? `<div class="msg">${esc(cell.message)}</div>` : ''}${marks.length ? `<div class="marks">${esc(marks.join('; '))}</div>` : ''}</td>`;
      });
      return `<tr><th scope="row"><code>${esc(row.label)}</code></th><td>${esc(row.kind)}</td>${cells.join('')}</tr>`;
    });
    table = `<div class="scroll"><table class="startup"><thead>${head}</thead><tbody>${rows.join('')}</tbody></table></div>`;
  }
  return `<p>${esc(startupSummaryLine(t))}</p>${missing ? `<ul class="muted">${missing}</ul>` : ''}${table}`;
}

function certificateSection(report: RunReport): string {
  const certified = certificates(report.cases);
  if (certified.length === 0) return '<p class="muted">No worker was certified in this run.</p>';
  return certified
    .map((c) => {
      const { route, checks, status } = c;
      const badge = status === 'not certified' || status === 'adapter broken' ? 'fail' : status === 'certified' ? 'pass' : 'skip';
      return `<details class="cert"><summary><span class="badge ${badge}">${status}</span> <code>${esc(route)}</code>: ${esc(certificateCounts(c))}</summary>${ordered(checks).map(caseBlock).join('')}</details>`;
    })
    .join('');
}

function unclassifiedSection(report: RunReport): string {
  const classTags = new Set(BEHAVIOUR_CLASSES.flatMap((b) => b.tags));
  const other = report.cases.filter((c) => !isCertification(c) && !c.tags.some((t) => classTags.has(t)));
  if (other.length === 0) return '';
  const bad = other.filter((c) => c.outcome !== 'pass').length;
  return `<details class="other"${bad > 0 ? ' open' : ''}><summary>${other.length} cases in no behaviour class (${other.length - bad} passed)</summary>${ordered(other).map(caseBlock).join('')}</details>`;
}

const STYLE = `
:root{--ok:#1a7f37;--ok-bg:#dafbe1;--bad:#cf222e;--bad-bg:#ffebe9;--part:#9a6700;--part-bg:#fff8c5;--muted:#57606a;--line:#d0d7de;--bg:#f6f8fa}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1f2328;background:#fff}
header{padding:16px 24px;border-bottom:1px solid var(--line);background:var(--bg)}
header h1{font-size:20px;margin:0 0 4px}
main{padding:8px 24px 40px;max-width:1400px}
h2{font-size:16px;margin:24px 0 8px;padding-bottom:4px;border-bottom:1px solid var(--line)}
h3{font-size:15px;margin:8px 0}
h4{font-size:13px;margin:0 0 6px;font-weight:600}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.muted{color:var(--muted)}
.cards{display:flex;gap:8px;flex-wrap:wrap;margin:10px 0 0}
.card{border:1px solid var(--line);border-radius:6px;padding:6px 12px;background:#fff;min-width:88px}
.card b{display:block;font-size:20px}
.card.pass b{color:var(--ok)}.card.fail b,.card.error b{color:var(--bad)}.card.skip b{color:var(--part)}
.scroll{overflow-x:auto}
table{border-collapse:collapse;margin:4px 0}
th,td{border:1px solid var(--line);padding:3px 8px;text-align:center;vertical-align:top}
th[scope=row]{text-align:left;white-space:nowrap;background:var(--bg)}
thead th{background:var(--bg);font-weight:600;white-space:nowrap}
td.ok{background:var(--ok-bg)}td.bad{background:var(--bad-bg)}td.partial{background:var(--part-bg)}td.empty{color:#afb8c1}
button.cell{font:inherit;font-variant-numeric:tabular-nums;border:0;background:none;cursor:pointer;padding:2px 6px;border-radius:4px;width:100%}
td.ok button.cell{color:var(--ok)}td.bad button.cell{color:var(--bad);font-weight:700}td.partial button.cell{color:var(--part)}
button.cell:hover,button.cell:focus{outline:2px solid #0969da}
td button.cell[aria-expanded=true]{background:#0969da;color:#fff}
table.startup td{text-align:left;max-width:360px}
.msg{font:11px/1.3 ui-monospace,monospace;color:var(--muted);word-break:break-word}
.marks{font-size:11px;color:var(--part)}
td.disagree{outline:2px solid var(--bad)}
.panel{border:1px solid #0969da;border-radius:6px;padding:8px 12px;margin:12px 0;background:#fff}
.case{border-left:4px solid var(--line);padding:6px 10px;margin:8px 0;background:var(--bg);border-radius:0 4px 4px 0}
.case.pass{border-color:var(--ok)}.case.fail,.case.error{border-color:var(--bad);background:var(--bad-bg)}.case.skip{border-color:var(--part)}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0}
dt{color:var(--muted)}dd{margin:0;min-width:0}
dd ul{margin:0;padding-left:18px}
pre.evidence{margin:0;white-space:pre-wrap;word-break:break-word}
.badge{display:inline-block;font-size:11px;font-weight:700;border-radius:10px;padding:0 7px;color:#fff;background:var(--muted)}
.badge.pass{background:var(--ok)}.badge.fail,.badge.error{background:var(--bad)}.badge.skip{background:var(--part)}
details{margin:6px 0}summary{cursor:pointer}
ul.drift li,ul.faults li{margin:2px 0}
`;

const SCRIPT = `
document.addEventListener('click', function (event) {
  var button = event.target.closest('button.cell');
  if (!button) return;
  var id = button.getAttribute('data-panel');
  var panel = document.getElementById(id);
  var open = panel.hidden;
  document.querySelectorAll('.panel').forEach(function (p) { p.hidden = true; });
  document.querySelectorAll('button.cell').forEach(function (b) { b.setAttribute('aria-expanded', 'false'); });
  if (open) {
    panel.hidden = false;
    button.setAttribute('aria-expanded', 'true');
    panel.scrollIntoView({ block: 'nearest' });
  }
});
`;

/** The whole HTML document for a report. */
export function htmlReport(report: RunReport): string {
  const s = report.summary;
  const h = report.header;
  const cards = [
    ['cases', s.total, ''],
    ['passed', s.pass, 'pass'],
    ['failed', s.fail, 'fail'],
    ['errored', s.error, 'error'],
    ['skipped', s.skip, 'skip'],
    ['run faults', s.faults, s.faults > 0 ? 'error' : ''],
    ['exit code', report.footer.exitCode, report.footer.exitCode === 0 ? 'pass' : 'fail'],
  ]
    .map(([label, n, cls]) => `<div class="card ${cls}"><b>${n}</b>${label}</div>`)
    .join('');
  const matrix = matrixSection(report);
  const drift = report.cases.flatMap((c) => (c.drift ?? []).map((d) => `<li>${esc(d)} <code>${esc(c.id)}</code></li>`));
  const faults = report.faults.map((f) => `<li><span class="badge error">${esc(f.kind)}</span> ${f.file ? `<code>${esc(f.file)}</code>` : ''}${f.where ? ` at ${esc(f.where)}` : ''}: ${esc(f.message)}</li>`);
  const clis = h.clis.map((c) => `<li>${esc(c.name)}: ${c.installed ? `installed, ${esc(c.version ?? 'version unknown')}` : 'not installed'}. <span class="muted">${esc(c.note)}</span></li>`).join('');
  const shard = h.shard ? `, shard ${h.shard.index}/${h.shard.count}` : '';
  const merged = h.mergedFrom?.length ? `, merged from ${h.mergedFrom.length} shard reports` : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>routecert run: ${s.pass}/${s.total} passed</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>routecert run</h1>
<div class="muted"><code>${esc(h.command)}</code> &middot; ${esc(h.startedAt)} &middot; ${(report.footer.durationMs / 1000).toFixed(1)} s &middot; routecert ${esc(h.toolVersion)}, node ${esc(h.node)}, ${esc(h.platform)}${shard}${merged} &middot; corpus <code>${esc(h.corpus)}</code></div>
<div class="cards">${cards}</div>
</header>
<main>
<h2 id="matrix">Route x behaviour class <span class="muted">(passed / cases; click a cell for its cases)</span></h2>
${matrix.table}
<div id="panels">${matrix.panels}</div>
${unclassifiedSection(report)}
<h2 id="startup">Startup probes</h2>
${startupSection(report)}
<h2 id="certificates">Certificates</h2>
${certificateSection(report)}
<h2 id="drift">Envelope drift</h2>
${drift.length > 0 ? `<ul class="drift">${drift.join('')}</ul>` : '<p class="muted">No drift: every probed envelope has the shape of its recorded case (or nothing was probed).</p>'}
${faults.length > 0 ? `<h2 id="faults">Run faults</h2><ul class="faults">${faults.join('')}</ul>` : ''}
${clis ? `<h2 id="clis">CLIs</h2><ul>${clis}</ul>` : ''}
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/** Writes `<dir>/report.html` (or `file`) at the end of the run. */
export function htmlReporter(options: OutputOptions): Reporter {
  return {
    name: 'html',
    rewrites: true,
    async onRunEnd(report) {
      await writeOutput(options, 'report.html', htmlReport(report));
    },
  };
}
