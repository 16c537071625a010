// robotsmatch web tester: talks to /api/* on the same origin, nothing else.
'use strict';

const EXAMPLE_ROBOTS = `User-agent: *
Disallow: /cart
Disallow: /checkout
Disallow: /*?*sort=
Disallow: /*.pdf$
Allow: /cart/help$
Allow: /public/*.pdf$

User-agent: Googlebot
Disallow: /private/
Allow: /private/press/
`;
const EXAMPLE_URLS = `https://shop.example/cart
https://shop.example/cart/help
https://shop.example/shoes?sort=price
/public/guide.pdf
/private/press/2024.html
/private/plans.html`;
const DEBOUNCE_MS = 250;
const MAX_FILE = 600 * 1024;

const $ = (id) => document.getElementById(id);
const el = (tag, attrs, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('data-') || k.startsWith('aria-')) e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const c of children) e.append(c);
  return e;
};

let lastCheck = null; // the last /api/check answer
let selectedIndex = -1; // the selected result row
const inflight = {};

function agent() {
  const text = $('agent-text').value.trim();
  return text !== '' ? text : $('crawler').value;
}

function urlList() {
  return $('urls').value.split(/\r\n|\r|\n/).map((s) => s.trim()).filter((s) => s !== '');
}

// POST a JSON body; the previous request of the same kind is cancelled.
async function post(kind, body) {
  if (inflight[kind]) inflight[kind].abort();
  const ctl = new AbortController();
  inflight[kind] = ctl;
  const r = await fetch(`/api/${kind}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal: ctl.signal,
  });
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || `HTTP ${r.status}`);
  return j;
}

function debounce(fn) {
  let t = null;
  return () => {
    clearTimeout(t);
    t = setTimeout(fn, DEBOUNCE_MS);
  };
}

function showError(id, err) {
  const p = $(id);
  if (err) {
    p.textContent = err;
    p.hidden = false;
  } else {
    p.hidden = true;
    p.textContent = '';
  }
}

// ---- the line-numbered view of the file ----
function renderView() {
  const view = $('robots-view');
  const lines = $('robots').value.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const frag = document.createDocumentFragment();
  lines.forEach((text, i) => {
    const n = i + 1;
    frag.append(el('span', { class: 'line', id: `L${n}`, 'data-line': String(n) },
      el('span', { class: 'ln', 'aria-hidden': 'true' }, String(n)), text));
  });
  view.replaceChildren(frag);
}

function clearHighlights() {
  for (const c of ['hl-group', 'hl-agent', 'hl-rule', 'hl-lint']) {
    for (const e of document.querySelectorAll(`#robots-view .${c}`)) e.classList.remove(c);
  }
}

function lineEl(n) {
  return document.getElementById(`L${n}`);
}

function scrollToLine(n) {
  const e = lineEl(n);
  const view = $('robots-view');
  if (e) view.scrollTop = Math.max(0, e.offsetTop - view.offsetTop - view.clientHeight / 3);
}

function groupText(g) {
  if (!g || g.kind === 'none') return 'none';
  const name = g.kind === 'wildcard' ? "'*'" : `'${g.token}'`;
  const ranges = g.ranges.map((r) => (r.start === r.end ? `line ${r.start}` : `lines ${r.start}-${r.end}`)).join(', ');
  return `${name} (${ranges})${g.fallback ? ', fallback' : ''}`;
}

function ruleText(rule, result) {
  if (rule) return `line ${rule.line}: ${rule.text}`;
  if (result && result.robots_txt) return 'none (/robots.txt is always allowed)';
  return 'none matches';
}

// The path and query of a URL as typed (scheme and host cut, fragment dropped; the host ends
// where the server's reading ends it, at '/', '?', ';', '#' or '\\').
function typedPath(u) {
  let s = u.replace(/#.*$/, '');
  const m = s.match(/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#;\\]*/);
  if (m) s = s.slice(m[0].length);
  return s === '' ? '/' : s;
}

function selectResult(i) {
  if (!lastCheck || i < 0 || i >= lastCheck.results.length) return;
  selectedIndex = i;
  const rows = document.querySelectorAll('#results tbody tr');
  rows.forEach((r, k) => {
    r.classList.toggle('selected', k === i);
    r.querySelector('button').setAttribute('aria-pressed', k === i ? 'true' : 'false');
  });
  clearHighlights();
  const g = lastCheck.group;
  if (g && g.kind !== 'none') {
    for (const r of g.ranges) {
      for (let n = r.start; n <= r.end; n++) lineEl(n)?.classList.add('hl-group');
    }
    for (const a of g.user_agents) lineEl(a.line)?.classList.add('hl-agent');
  }
  const res = lastCheck.results[i];
  let msg;
  if (res.rule) {
    lineEl(res.rule.line)?.classList.add('hl-rule');
    scrollToLine(res.rule.line);
    msg = `Line ${res.rule.line} highlighted (${res.rule.text}), in group ${groupText(g)}.`;
  } else {
    if (g && g.ranges.length) scrollToLine(g.ranges[0].start);
    msg = `No rule decides ${res.url}; group ${groupText(g)}.`;
  }
  $('highlight-status').textContent = msg;
}

function renderResults(j) {
  const tbody = $('results').querySelector('tbody');
  const frag = document.createDocumentFragment();
  j.results.forEach((r, i) => {
    const btn = el('button', { type: 'button', title: 'Highlight the deciding line and group' }, r.url);
    btn.addEventListener('click', (ev) => {
      ev.stopPropagation();
      selectResult(i);
    });
    const tr = el('tr', { 'data-verdict': r.verdict, 'data-line': r.rule ? String(r.rule.line) : '' },
      // When what is matched differs from what was typed (no scheme, percent-encoding), say so.
      el('td', { class: 'url' }, btn, ...(r.path !== typedPath(r.url)
        ? [el('span', { class: 'compared' }, 'compared as ', el('code', {}, r.path))] : [])),
      el('td', {}, el('span', { class: `verdict ${r.verdict}` }, r.allowed ? '\u2713 allowed' : '\u2717 disallowed')),
      el('td', { class: 'rule' }, ruleText(r.rule, r), ...(r.runner_up
        ? [el('span', { class: 'runner-up' }, `runner-up: ${ruleText(r.runner_up)}`)] : [])),
      el('td', { class: 'group' }, groupText(j.group)));
    tr.addEventListener('click', () => selectResult(i));
    frag.append(tr);
  });
  tbody.replaceChildren(frag);
  const c = j.counts;
  const who = j.agent.tokens.length > 1 ? `${j.agent.token} (then ${j.agent.tokens.slice(1).join(', ')})` : j.agent.token;
  const delay = j.crawl_delay === null ? '' : `; crawl-delay ${j.crawl_delay} s (line ${j.crawl_delay_line})`;
  $('check-status').textContent =
    `${c.urls} URL${c.urls === 1 ? '' : 's'}: ${c.allowed} allowed, ${c.disallowed} disallowed, for ${who}; group ${groupText(j.group)}${delay}.`;
}

async function updateCheck() {
  const robots = $('robots').value;
  renderView();
  selectedIndex = Math.min(selectedIndex, urlList().length - 1);
  try {
    const j = await post('check', { robots, agent: agent(), urls: urlList(), profile: $('profile').value });
    showError('check-error', null);
    lastCheck = j;
    renderResults(j);
    if (selectedIndex >= 0) selectResult(selectedIndex);
    else clearHighlights();
  } catch (e) {
    if (e.name === 'AbortError') return;
    // Stale results would mislead: clear them and say why.
    lastCheck = null;
    $('results').querySelector('tbody').replaceChildren();
    clearHighlights();
    $('check-status').textContent = 'No results.';
    showError('check-error', `Cannot check: ${e.message}`);
  }
}

function jumpToLine(n) {
  clearHighlights();
  const e = lineEl(n);
  if (e) {
    e.classList.add('hl-lint');
    scrollToLine(n);
  }
  // Select the line in the editor too, so the keyboard lands on it.
  const ta = $('robots');
  const lines = ta.value.split('\n');
  let start = 0;
  for (let k = 0; k < n - 1 && k < lines.length; k++) start += lines[k].length + 1;
  const end = start + (lines[n - 1] || '').length;
  ta.focus();
  ta.setSelectionRange(start, end);
  $('highlight-status').textContent = `Line ${n} highlighted.`;
}

async function updateLint() {
  try {
    const j = await post('lint', { robots: $('robots').value });
    const list = $('lint-list');
    const frag = document.createDocumentFragment();
    for (const f of j.findings) {
      const where = f.line > 0
        ? el('button', { type: 'button', 'data-line': String(f.line), title: 'Show this line' }, `line ${f.line}`)
        : el('span', {}, 'whole file');
      if (f.line > 0) where.addEventListener('click', () => jumpToLine(f.line));
      frag.append(el('li', { 'data-code': f.code },
        where, ' ',
        el('span', { class: `sev ${f.severity}` }, f.severity), ' ',
        el('code', {}, f.code), ': ', f.message,
        el('span', { class: 'fix' }, `fix: ${f.fix}`)));
    }
    list.replaceChildren(frag);
    $('lint-status').textContent = j.findings.length === 0
      ? 'No findings.'
      : `${j.errors} error${j.errors === 1 ? '' : 's'}, ${j.warnings} warning${j.warnings === 1 ? '' : 's'}.`;
  } catch (e) {
    if (e.name === 'AbortError') return;
    $('lint-status').textContent = `Cannot lint: ${e.message}`;
  }
}

async function updateDiff() {
  try {
    const j = await post('diff', {
      old: $('old').value, new: $('new').value, agent: agent(), urls: urlList(), profile: $('profile').value,
    });
    showError('diff-error', null);
    const tbody = $('diff-results').querySelector('tbody');
    const frag = document.createDocumentFragment();
    const v = (x) => el('span', { class: `verdict ${x}` }, x === 'allowed' ? '\u2713 allowed' : '\u2717 disallowed');
    for (const c of j.changed) {
      frag.append(el('tr', {},
        el('td', { class: 'url' }, c.url), el('td', {}, v(c.old_verdict)), el('td', {}, v(c.new_verdict)),
        el('td', { class: 'rule' }, ruleText(c.old_rule)), el('td', { class: 'rule' }, ruleText(c.new_rule))));
    }
    tbody.replaceChildren(frag);
    const c = j.counts;
    $('diff-status').textContent =
      `${c.urls} URLs: ${c.unchanged} unchanged, ${c.allowed_to_disallowed} allowed -> disallowed, ` +
      `${c.disallowed_to_allowed} disallowed -> allowed` + (c.invalid ? `, ${c.invalid} not URLs (skipped)` : '') + '.';
  } catch (e) {
    if (e.name === 'AbortError') return;
    $('diff-results').querySelector('tbody').replaceChildren();
    $('diff-status').textContent = 'No results.';
    showError('diff-error', `Cannot compare: ${e.message}`);
  }
}

function activeTab() {
  return $('tab-diff').getAttribute('aria-selected') === 'true' ? 'diff' : 'check';
}

function updateAll() {
  if (activeTab() === 'diff') {
    updateDiff();
  } else {
    updateCheck();
    updateLint();
  }
}
const scheduleAll = debounce(updateAll);

// ---- tabs (WAI-ARIA tabs pattern: arrows, Home, End) ----
function selectTab(tab, focus) {
  for (const t of document.querySelectorAll('[role=tab]')) {
    const on = t === tab;
    t.setAttribute('aria-selected', on ? 'true' : 'false');
    t.tabIndex = on ? 0 : -1;
    $(t.getAttribute('aria-controls')).hidden = !on;
  }
  if (focus) tab.focus();
  updateAll();
}

function setupTabs() {
  const tabs = [...document.querySelectorAll('[role=tab]')];
  tabs.forEach((t, i) => {
    t.addEventListener('click', () => selectTab(t, false));
    t.addEventListener('keydown', (ev) => {
      let k = null;
      if (ev.key === 'ArrowRight') k = (i + 1) % tabs.length;
      else if (ev.key === 'ArrowLeft') k = (i - 1 + tabs.length) % tabs.length;
      else if (ev.key === 'Home') k = 0;
      else if (ev.key === 'End') k = tabs.length - 1;
      if (k !== null) {
        ev.preventDefault();
        selectTab(tabs[k], true);
      }
    });
  });
}

async function loadFile(file, target) {
  if (file.size > MAX_FILE) {
    showError('check-error', `${file.name} is ${file.size} bytes; the tester takes files up to ${MAX_FILE} bytes.`);
    return;
  }
  target.value = await file.text();
  scheduleAll();
}

async function loadCrawlers() {
  try {
    const r = await fetch('/api/crawlers');
    const list = await r.json();
    const sel = $('crawler');
    const keep = sel.value;
    sel.replaceChildren(...list.map((c) => el('option', { value: c.token }, `${c.token} (${c.operator}: ${c.purpose})`)));
    sel.value = list.some((c) => c.token === keep) ? keep : list[0].token;
    const info = () => {
      const c = list.find((x) => x.token === sel.value);
      if (!c) return;
      const fb = c.fallbacks.length ? ` Obeys a ${c.fallbacks.join(', ')} group when none names it.` : '';
      const w = c.obeys_wildcard ? '' : " Ignores the '*' group.";
      $('crawler-info').textContent = `${c.purpose}.${fb}${w}`;
    };
    sel.addEventListener('change', info);
    info();
  } catch (e) {
    $('crawler-info').textContent = `Cannot load the crawler catalog: ${e.message}`;
  }
}

function init() {
  $('robots').value = EXAMPLE_ROBOTS;
  $('urls').value = EXAMPLE_URLS;
  $('old').value = EXAMPLE_ROBOTS;
  $('new').value = EXAMPLE_ROBOTS.replace('Disallow: /private/\n', 'Disallow: /private/\nDisallow: /public/\n');
  setupTabs();
  for (const id of ['robots', 'urls', 'agent-text', 'old', 'new']) $(id).addEventListener('input', scheduleAll);
  for (const id of ['crawler', 'profile']) $(id).addEventListener('change', scheduleAll);
  $('robots-file').addEventListener('change', (ev) => {
    if (ev.target.files[0]) loadFile(ev.target.files[0], $('robots'));
  });
  for (const id of ['robots', 'old', 'new']) {
    const ta = $(id);
    ta.addEventListener('dragover', (ev) => {
      ev.preventDefault();
      ta.classList.add('dragging');
    });
    ta.addEventListener('dragleave', () => ta.classList.remove('dragging'));
    ta.addEventListener('drop', (ev) => {
      ev.preventDefault();
      ta.classList.remove('dragging');
      const f = ev.dataTransfer.files[0];
      if (f) loadFile(f, ta);
    });
  }
  $('copy-old').addEventListener('click', () => { $('old').value = $('robots').value; scheduleAll(); });
  $('copy-new').addEventListener('click', () => { $('new').value = $('robots').value; scheduleAll(); });
  loadCrawlers().then(updateAll);
}

document.addEventListener('DOMContentLoaded', init);
