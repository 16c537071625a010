// Browser test of the robotsmatch web tester, in headless Chromium driven by playwright-core.
// Run by tools/browser-test, which starts `robotsmatch serve` and sets:
//   ROBOTSMATCH_URL  the server's base URL (http://127.0.0.1:PORT)
//   ROBOTSMATCH_BIN  the robotsmatch binary: expected answers come from its check/lint/diff
//   SCREENSHOT       where to save the screenshot (docs/serve.png)
// Every check prints "ok - ..." or "FAIL - ..."; the exit status is 1 when any failed.
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const base = process.env.ROBOTSMATCH_URL;
const bin = process.env.ROBOTSMATCH_BIN;
const screenshot = process.env.SCREENSHOT || join(root, 'docs', 'serve.png');
if (!base || !bin) {
  console.error('set ROBOTSMATCH_URL and ROBOTSMATCH_BIN (tools/browser-test does)');
  process.exit(2);
}

let failures = 0;
let checks = 0;
function check(cond, what, detail) {
  checks++;
  if (cond) {
    console.log(`ok - ${what}`);
  } else {
    failures++;
    console.log(`FAIL - ${what}${detail === undefined ? '' : `: ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`}`);
  }
}

// The CLI's answer for the same input (exit 1 from lint/diff only means "findings/changes").
function cli(args) {
  try {
    return execFileSync(bin, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  } catch (e) {
    if (e.status === 1) return e.stdout;
    throw e;
  }
}

const ruleText = (r) => (r ? `line ${r.line}: ${r.kind === 'allow' ? 'Allow' : 'Disallow'}: ${r.pattern}` : null);

// Checks the results table row by row against `check --format json` for the same input.
async function checkRows(page, expected, who) {
  const g = expected.group;
  const groupName = g.kind === 'named' ? `'${g.token}'` : g.kind === 'wildcard' ? "'*'" : 'none';
  const rows = await page.$$eval('#results tbody tr', (trs) => trs.map((tr) => ({
    url: tr.querySelector('td.url button').textContent,
    compared: tr.querySelector('td.url .compared')?.textContent ?? null,
    verdict: tr.dataset.verdict,
    shown: tr.children[1].textContent,
    rule: tr.children[2].firstChild.textContent,
    runnerUp: tr.querySelector('.runner-up')?.textContent ?? null,
    group: tr.children[3].textContent,
  })));
  check(rows.length === expected.results.length, `${who}: table has ${expected.results.length} rows`, rows.length);
  expected.results.forEach((e, i) => {
    const r = rows[i] || {};
    check(r.url === e.url, `${who} row ${i + 1}: URL ${e.url}`, r.url);
    const typed = e.url.replace(/#.*$/, '').replace(/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#;\\]*/, '') || '/';
    const wantCompared = e.path === typed ? null : `compared as ${e.path}`;
    check(r.compared === wantCompared, `${who} row ${i + 1}: ${wantCompared ?? 'no note on the compared path'}`, r.compared);
    check(r.verdict === e.verdict && r.shown.includes(e.verdict),
      `${who} row ${i + 1}: verdict '${e.verdict}' (as text, not only colour), as check --format json says`, r);
    const want = ruleText(e.rule) ?? 'none matches';
    check(r.rule === want, `${who} row ${i + 1}: deciding rule '${want}'`, r.rule);
    const wantRunnerUp = e.runner_up ? `runner-up: ${ruleText(e.runner_up)}` : null;
    check(r.runnerUp === wantRunnerUp, `${who} row ${i + 1}: ${wantRunnerUp ?? 'no runner-up'}`, r.runnerUp);
    check(r.group.startsWith(groupName), `${who} row ${i + 1}: group ${groupName}`, r.group);
  });
  const status = await page.textContent('#check-status');
  const nAllowed = expected.results.filter((e) => e.verdict === 'allowed').length;
  check(status.includes(`${nAllowed} allowed`), `${who}: the live status counts the allowed URLs`, status);
}

const SHOP = 'corpora/examples/shop.txt';
const AGENT = 'Googlebot-Image';
const URLS = [
  'https://shop.example/images/shoe.jpg',
  'https://shop.example/account/settings',
  'https://shop.example/cart',
  '/images/',
  '/account/',
  'https://shop.example/shoes?sort=price',
  'shop.example/account/%7Euser#top',
];
const expected = JSON.parse(cli(['check', '--robots', SHOP, '--agent', AGENT, '--format', 'json', ...URLS]));
const expectedLint = JSON.parse(cli(['lint', '--format', 'json', SHOP]));

// Playwright gives the browser a new empty profile directory and removes it on close.
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const external = [];
const consoleErrors = [];
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // Nothing may be fetched from anywhere but the server.
  await context.route('**/*', (route) => {
    const u = route.request().url();
    if (u.startsWith(base)) return route.continue();
    external.push(u);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));

  // ---- 1. paste a file, pick Googlebot-Image, enter URLs, read the table ----
  await page.goto(base + '/');
  await page.waitForFunction(() => document.querySelectorAll('#crawler option').length > 5);
  const shop = readFileSync(join(root, SHOP), 'utf8');
  await page.getByLabel('robots.txt', { exact: true }).fill(shop);
  await page.getByLabel('Crawler (from the catalog)').selectOption(AGENT);
  await page.getByLabel('URLs or paths to test, one per line').fill(URLS.join('\n'));
  await page.waitForFunction(
    ([n, agent]) => document.querySelectorAll('#results tbody tr').length === n &&
      document.getElementById('check-status').textContent.includes(`for ${agent}`),
    [URLS.length, AGENT], { timeout: 10000 });
  await checkRows(page, expected, AGENT);

  // ---- 2. click a decided row: the deciding line and the group are highlighted ----
  const pick = expected.results.findIndex((e) => e.verdict === 'disallowed' && e.rule);
  await page.locator('#results tbody tr').nth(pick).locator('button').click();
  const hl = await page.evaluate(() => ({
    rule: [...document.querySelectorAll('#robots-view .hl-rule')].map((e) => Number(e.dataset.line)),
    agents: [...document.querySelectorAll('#robots-view .hl-agent')].map((e) => Number(e.dataset.line)),
    group: [...document.querySelectorAll('#robots-view .hl-group')].map((e) => Number(e.dataset.line)),
    text: document.querySelector('#robots-view .hl-rule')?.textContent,
  }));
  const ruleLine = expected.results[pick].rule.line;
  check(hl.rule.length === 1 && hl.rule[0] === ruleLine, `clicking ${expected.results[pick].url} highlights line ${ruleLine}`, hl.rule);
  check(hl.text && hl.text.endsWith(`${expected.results[pick].rule.kind === 'allow' ? 'Allow' : 'Disallow'}: ${expected.results[pick].rule.pattern}`),
    'the highlighted line is the rule as written', hl.text);
  const uaLines = expected.group.user_agents.map((a) => a.line);
  check(JSON.stringify(hl.agents) === JSON.stringify(uaLines), `the group's user-agent lines ${uaLines} are highlighted`, hl.agents);
  check(hl.group.includes(ruleLine) && hl.group.includes(uaLines[0]) && hl.group.every((n) => n >= uaLines[0]),
    'the highlighted group runs from its user-agent line through the deciding rule', hl.group);
  const said = await page.textContent('#highlight-status');
  check(said.includes(`Line ${ruleLine}`), 'the highlight is announced in a live region', said);

  // ---- 3. the lint panel lists lint's findings; clicking one jumps to its line ----
  const lint = await page.$$eval('#lint-list li', (lis) => lis.map((li) => ({ code: li.dataset.code, text: li.textContent })));
  check(lint.length === expectedLint.findings.length, `lint panel lists ${expectedLint.findings.length} finding(s), as lint --format json`, lint);
  expectedLint.findings.forEach((f, i) => {
    check(lint[i] && lint[i].code === f.code && lint[i].text.includes(`line ${f.line}`) && lint[i].text.includes(f.severity),
      `lint finding ${i + 1}: ${f.severity} ${f.code} on line ${f.line}`, lint[i]);
  });
  if (expectedLint.findings.length > 0 && expectedLint.findings[0].line > 0) {
    const f = expectedLint.findings[0];
    await page.locator('#lint-list li').first().getByRole('button').click();
    const jumped = await page.evaluate(() => ({
      lint: [...document.querySelectorAll('#robots-view .hl-lint')].map((e) => Number(e.dataset.line)),
      focus: document.activeElement.id,
    }));
    check(jumped.lint.length === 1 && jumped.lint[0] === f.line && jumped.focus === 'robots',
      `clicking the finding marks line ${f.line} and puts the cursor on it in the editor`, jumped);
  }

  // The screenshot: the file, Googlebot-Image's results, the deciding line highlighted.
  await page.locator('#results tbody tr').nth(pick).locator('button').click();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: screenshot, fullPage: true });
  check(true, `screenshot saved to ${screenshot}`);

  // ---- 4. accessibility ----
  // Every control has an accessible name, found by its visible label.
  for (const [label, id] of [
    ['Crawler (from the catalog)', 'crawler'],
    ['Other crawler: any product token or full user-agent string', 'agent-text'],
    ['Matching profile', 'profile'],
    ['URLs or paths to test, one per line', 'urls'],
    ['robots.txt', 'robots'],
    ['Open a robots.txt file', 'robots-file'],
  ]) {
    const got = await page.getByLabel(label, { exact: true }).getAttribute('id').catch((e) => `error: ${e.message}`);
    check(got === id, `control '${label}' is labelled`, got);
  }
  const unnamed = await page.evaluate(() => [...document.querySelectorAll('input, select, textarea, button')]
    .filter((e) => !e.closest('[hidden]'))
    .filter((e) => !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.textContent.trim())
    .map((e) => e.outerHTML.slice(0, 80)));
  check(unnamed.length === 0, 'every visible control has a name (label, aria-label or text)', unnamed);
  // axe-core, WCAG 2 A and AA rules (contrast included), evaluated in the page.
  const require = createRequire(import.meta.url);
  const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  const axe = await page.evaluate(async () => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return { violations: r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) })), passes: r.passes.length };
  });
  check(axe.violations.length === 0, `axe-core: no WCAG 2.1 A/AA violations (${axe.passes} rules pass)`, axe.violations);

  // The same file for Googlebot, typed as a full user-agent string: the '*' group, runner-ups.
  const UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
  const expectUrls = readFileSync(join(root, 'corpora/examples/shop.expect'), 'utf8').split('\n')
    .filter((l) => /^(allow|disallow) /.test(l)).map((l) => l.split(' ')[1]);
  const expected2 = JSON.parse(cli(['check', '--robots', SHOP, '--agent', UA, '--format', 'json', ...expectUrls]));
  await page.fill('#agent-text', UA);
  await page.fill('#urls', expectUrls.join('\n'));
  await page.waitForFunction((n) => document.querySelectorAll('#results tbody tr').length === n &&
    document.getElementById('check-status').textContent.includes('for Googlebot;'), expectUrls.length, { timeout: 10000 }).catch(() => {});
  await checkRows(page, expected2, 'Googlebot (full user-agent string)');
  check(expected2.results.some((e) => e.runner_up), 'that list has a URL with a runner-up rule');

  // ---- 5. opening a file and dropping one load it into the editor ----
  await page.goto(base + '/');
  await page.waitForFunction(() => document.querySelectorAll('#crawler option').length > 5);
  const old2019 = readFileSync(join(root, 'corpora/versions/arstechnica.com.2019.txt'), 'utf8');
  await page.setInputFiles('#robots-file', join(root, 'corpora/versions/arstechnica.com.2019.txt'));
  await page.waitForFunction((n) => document.querySelectorAll('#robots-view .line').length === n,
    old2019.split('\n').length - (old2019.endsWith('\n') ? 1 : 0)).catch(() => {});
  check(await page.inputValue('#robots') === old2019, 'opening a file with the file input loads it into the editor');
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'robots.txt', { type: 'text/plain' }));
    document.getElementById('robots').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, shop);
  await page.waitForFunction((text) => document.getElementById('robots').value === text, shop, { timeout: 5000 }).catch(() => {});
  check(await page.inputValue('#robots') === shop, 'dropping a file on the editor loads it');
  // A request the API refuses: its message is shown in an alert and no stale result stays.
  const errorsBefore = consoleErrors.length;
  await page.fill('#agent-text', 'all');
  await page.waitForSelector('#check-error:not([hidden])', { timeout: 5000 }).catch(() => {});
  const alert = await page.evaluate(() => ({
    text: document.getElementById('check-error').textContent,
    role: document.getElementById('check-error').getAttribute('role'),
    rows: document.querySelectorAll('#results tbody tr').length,
  }));
  check(alert.role === 'alert' && alert.text.includes("field 'agent'") && alert.rows === 0,
    "an API error (agent 'all') is shown as an alert naming the field, and the table is emptied", alert);
  await page.fill('#agent-text', '');
  await page.waitForFunction(() => document.querySelectorAll('#results tbody tr').length > 0 &&
    document.getElementById('check-error').hidden, null, { timeout: 5000 }).catch(() => {});
  check(await page.evaluate(() => document.getElementById('check-error').hidden), 'the alert goes away once the input is fixed');
  // The browser logs the deliberate 400 as a failed resource: keep only other errors.
  const deliberate = (m) => m.includes('status of 400');
  const since = consoleErrors.splice(errorsBefore);
  consoleErrors.push(...since.filter((m) => !deliberate(m)));

  // ---- 6. keyboard only ----
  await page.goto(base + '/');
  await page.waitForFunction(() => document.querySelectorAll('#crawler option').length > 5);
  const order = [];
  for (let i = 0; i < 16; i++) {
    await page.keyboard.press('Tab');
    order.push(await page.evaluate(() => document.activeElement.id || document.activeElement.tagName.toLowerCase()));
  }
  const want = ['crawler', 'agent-text', 'profile', 'urls', 'tab-check', 'robots', 'robots-file', 'robots-view'];
  const positions = want.map((id) => order.indexOf(id));
  check(positions.every((p, i) => p >= 0 && (i === 0 || p > positions[i - 1])), `Tab visits ${want.join(' -> ')} in order`, order);
  // A visible focus outline.
  await page.focus('#urls');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  check(outline !== 'none', 'the focused control shows an outline', outline);
  // Type a crawler by keyboard, Tab to the first result and press Enter.
  await page.focus('#agent-text');
  await page.keyboard.type(AGENT);
  await page.waitForFunction((agent) => document.getElementById('check-status').textContent.includes(`for ${agent}`), AGENT);
  await page.focus('#robots-view');
  await page.keyboard.press('Tab');
  const onRow = await page.evaluate(() => document.activeElement.closest('#results') !== null);
  check(onRow, 'Tab after the file view reaches the first result');
  await page.keyboard.press('Enter');
  const kb = await page.evaluate(() => ({
    selected: document.querySelectorAll('#results tbody tr.selected').length,
    rule: [...document.querySelectorAll('#robots-view .hl-rule, #robots-view .hl-agent')].map((e) => Number(e.dataset.line)),
  }));
  check(kb.selected === 1 && kb.rule.length > 0, 'Enter on a result selects it and highlights its lines', kb);
  // Arrow keys move between the tabs.
  await page.focus('#tab-check');
  await page.keyboard.press('ArrowRight');
  const tabs = await page.evaluate(() => ({
    focus: document.activeElement.id,
    selected: document.getElementById('tab-diff').getAttribute('aria-selected'),
    diffHidden: document.getElementById('panel-diff').hidden,
    checkHidden: document.getElementById('panel-check').hidden,
  }));
  check(tabs.focus === 'tab-diff' && tabs.selected === 'true' && !tabs.diffHidden && tabs.checkHidden,
    'ArrowRight on the tabs selects and shows "Compare versions"', tabs);
  await page.keyboard.press('ArrowLeft');
  check(await page.evaluate(() => document.activeElement.id === 'tab-check' && !document.getElementById('panel-check').hidden),
    'ArrowLeft goes back to "Test one file"');

  // ---- 7. compare two versions over the same URL list: the diff command's result ----
  const OLD = 'corpora/versions/arstechnica.com.2019.txt';
  const NEW = 'corpora/versions/arstechnica.com.2024.txt';
  const LOG = 'corpora/versions/arstechnica.com.urls';
  const tsv = cli(['diff', '--agent', 'Googlebot', '--format', 'tsv', OLD, NEW, LOG]).split('\n').filter((l) => l);
  const changedUrls = tsv.map((l) => l.split('\t')[4]);
  await page.fill('#agent-text', '');
  await page.selectOption('#crawler', 'Googlebot');
  await page.fill('#urls', readFileSync(join(root, LOG), 'utf8'));
  await page.click('#tab-diff');
  await page.fill('#old', readFileSync(join(root, OLD), 'utf8'));
  await page.fill('#new', readFileSync(join(root, NEW), 'utf8'));
  await page.waitForFunction((n) => document.querySelectorAll('#diff-results tbody tr').length === n &&
    document.getElementById('diff-status').textContent !== '', changedUrls.length, { timeout: 15000 })
    .catch(() => {});
  const diffRows = await page.$$eval('#diff-results tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  check(diffRows.length === changedUrls.length && changedUrls.length > 0,
    `Compare versions lists the ${changedUrls.length} URLs that diff --format tsv lists`, diffRows.length);
  tsv.forEach((l, i) => {
    const [ov, nv, , nr, url] = l.split('\t');
    const r = diffRows[i] || [];
    check(r[0] === url && r[1].includes(ov) && r[2].includes(nv) && r[4] === (nr === '-' ? 'none matches' : nr),
      `changed URL ${i + 1}: ${ov} -> ${nv} by ${nr}`, r);
  });
  const diffStatus = await page.textContent('#diff-status');
  const lines = readFileSync(join(root, LOG), 'utf8').split('\n').filter((l) => l.trim()).length;
  check(diffStatus.startsWith(`${lines} URLs`), `the status counts the ${lines} URLs`, diffStatus);

  check(external.length === 0, 'nothing was requested outside the server', external);
  check(consoleErrors.length === 0, 'no errors in the browser console', consoleErrors);
} finally {
  await browser.close();
}
console.log(`${checks - failures} of ${checks} checks passed`);
process.exit(failures === 0 ? 0 : 1);
