/**
 * report.html as a person sees it, in headless Chromium (Debian's `chromium`, driven by
 * playwright-core): the matrix is rendered, a failing cell is marked, a click on it shows that
 * cell's cases with verdict, expected, evidence and the replay command, and the page asks for
 * nothing over the network. Saves reports/html-report.png (after the click) for a look.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectPath } from '#src/paths.ts';
import { mixedCorpus, onlyRun, routecert, tempRoot } from '#src/cli/cliTestKit.ts';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
// CI installs chromium (.ci/run); elsewhere the test says why it did not run.
const missing = !existsSync(CHROMIUM) && !process.env.CI;

let root: Awaited<ReturnType<typeof tempRoot>>;
let browser: Browser | undefined;
let html = '';
let failing = '';
let exitCode: number | undefined;
beforeAll(async () => {
  if (missing) return;
  root = await tempRoot('html');
  const cases = path.join(root.dir, 'cases');
  ({ failing } = await mixedCorpus(cases));
  const reports = path.join(root.dir, 'reports');
  const r = await routecert(['run', '--no-probes', '--quiet', '--cases', cases, '--reports', reports], { cwd: root.dir });
  exitCode = r.exitCode;
  html = path.join((await onlyRun(reports)).dir, 'report.html');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await root?.remove();
});

describe.skipIf(missing)(`report.html in headless Chromium${missing ? ` (skipped: ${CHROMIUM} is not installed; apt-get install -y chromium)` : ''}`, { timeout: 120_000 }, () => {
  it('is one file that needs no network', async () => {
    expect(exitCode).toBe(2); // the broken case file
    const text = await readFile(html, 'utf8');
    // Nothing that loads a resource: no <link>, <img>, frames, src attributes, CSS url() or @import.
    expect(/<(link|img|iframe|object|embed)\b|\ssrc=|url\(|@import/i.exec(text)?.[0]).toBeUndefined();
    expect(text).toContain("default-src 'none'");
  });

  it('renders the matrix; a click on the failing cell shows its cases with verdict, expected, evidence and replay', async () => {
    const page = await browser!.newPage({ viewport: { width: 1360, height: 1200 } });
    const requests: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith('file:')) requests.push(r.url());
    });
    await page.goto(pathToFileURL(html).href);
    const matrix = page.locator('table.matrix');
    await expect.poll(() => matrix.isVisible()).toBe(true);
    expect(await matrix.locator('tbody tr').count()).toBeGreaterThanOrEqual(15);
    expect(await matrix.locator('thead th').allInnerTexts()).toEqual(expect.arrayContaining(['route', 'final', 'key-case', 'nonfinal', 'api-error']));

    const row = matrix.locator('tbody tr', { has: page.locator('th', { hasText: /^claude-code\/json$/ }) });
    const finalColumn = (await matrix.locator('thead th').allInnerTexts()).indexOf('final');
    const cell = row.locator('td').nth(finalColumn - 1);
    expect(await cell.getAttribute('class')).toBe('bad');
    expect(await cell.innerText()).toBe('0/1');

    const panelId = (await cell.locator('button').getAttribute('data-panel'))!;
    const panel = page.locator(`[id="${panelId}"]`);
    expect(await panel.isVisible()).toBe(false);
    await cell.locator('button').click();
    await expect.poll(() => panel.isVisible()).toBe(true);
    const article = panel.locator(`article[data-case="${failing}"]`);
    expect(await article.isVisible()).toBe(true);
    const text = await article.innerText();
    expect(text).toContain('FAIL');
    expect(text).toMatch(/verdict\s+accepted from structured_output/);
    expect(text).toMatch(/expected\s+retry/);
    expect(text).toMatch(/evidence\s+/);
    expect(text).toContain(`npx routecert run --case ${failing} --cases`);
    expect(await cell.locator('button').getAttribute('aria-expanded')).toBe('true');

    // Another click closes it again.
    await cell.locator('button').click();
    await expect.poll(() => panel.isVisible()).toBe(false);
    await cell.locator('button').click();

    const shot = projectPath('reports/html-report.png');
    await mkdir(path.dirname(shot), { recursive: true });
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: shot, fullPage: false });
    expect(requests).toEqual([]);
    await page.close();
  });

  it('shows the startup-probe, certificate and drift sections, and the run fault', async () => {
    const page = await browser!.newPage();
    await page.goto(pathToFileURL(html).href);
    for (const id of ['startup', 'certificates', 'drift', 'faults']) expect(await page.locator(`h2#${id}`).isVisible()).toBe(true);
    expect(await page.locator('ul.faults').innerText()).toContain('broken.json');
    await page.close();
  });
});
