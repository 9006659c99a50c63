// The contacts grid in Chromium with 500 rows per page: time from the end of the /v1/contacts
// response (Resource Timing responseEnd) to the first screen of rows in the grid (a MutationObserver
// in the page), and to the next frame after that. A page of 500 renders only the rows in and near its
// scroll area (DataGrid's windowed body), so "rendered" means: the grid's table says it has the 500
// rows (aria-rowcount 501, with the header row) and its body holds the rows that fill the first screen
// of the scroll area (at most 70vh of the viewport, rows at least 40 px high). The figure also reports
// how many rows were in the DOM then. Cases: opening /engagement/contacts (fresh context
// each run), and going to the next / previous page in an open grid. A page change is paired only
// with a response requested after its click: going back to a page fetched within the query
// staleTime (shared/src/query.ts) sends no request at all (the rows come from the query cache), so
// that case is timed from the click instead, in a row of its own.
//
// Runs against a started system (run-all.ts calls gridBench), or alone: `tsx audience/grid.ts`
// starts the system on the bench ports (BENCH_PORT_BASE, default 3200-3205 and 4200) with a fresh embedded database; it needs
// `pnpm build` first. Do not run both at once (same ports).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { newSession } from '../../e2e/lib/browser.ts';
import { isImportFinished, type ImportJob } from '../../gateway/src/contracts.ts';
import { Api } from './gateway.ts';
import { IMPORT_MAPPING, writeImportCsv } from './import-csv.ts';
import { mdTable, ms, summarise, type Cell } from './report.ts';
import { benchSystemEnv } from '../lib.ts';

/** A tenant without the demo audience, whose plan has manage_contacts (README logins). */
const GRID_LOGIN = { email: 'owner@lab.test', password: 'lab-pass-2026' };
const ROWS = 500;
/** Enough good rows (2% of the file is bad) for two full pages of 500. */
const IMPORT_ROWS = 1600;

interface GridProbe {
  /** /v1/contacts responses seen so far (Resource Timing startTime and responseEnd). */
  responses: { url: string; start: number; end: number }[];
  /** When the last click in the page happened (event timeStamp), or null before any. */
  clicked: number | null;
  /** Waiting for this many rows, and (after a page change) a first row other than this text. */
  rows: number;
  firstRowNot: string | null;
  rendered: number | null;
  /** Body rows in the DOM when the first screen was there. */
  domRows: number | null;
  frame: number | null;
}

declare global {
  interface Window {
    __audienceGrid?: GridProbe;
  }
}

/** Installed before any page script: page size 500, the response and DOM observers. */
function installProbe(rows: number) {
  // The grid's body rows: those of the table that announces the whole page (aria-rowcount counts the header row);
  // spacer rows carry no aria-rowindex. Serialised with this function, so defined inside it.
  const bodyRows = () =>
    Array.from(document.querySelectorAll(`table[aria-rowcount="${rows + 1}"] tbody tr[aria-rowindex]`));
  // The first screen: the grid's scroll area is at most 70vh, a row at least 40 px (no layout read here: that
  // would force a layout inside the measurement).
  const firstScreen = Math.min(rows, Math.ceil((window.innerHeight * 0.7) / 40));
  localStorage.setItem('perPage', String(rows));
  const probe: GridProbe = {
    responses: [],
    clicked: null,
    rows,
    firstRowNot: null,
    rendered: null,
    domRows: null,
    frame: null,
  };
  window.__audienceGrid = probe;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e instanceof PerformanceResourceTiming && e.name.includes('/v1/contacts?')) {
        probe.responses.push({ url: e.name, start: e.startTime, end: e.responseEnd });
      }
    }
  }).observe({ type: 'resource', buffered: true });
  const check = () => {
    if (probe.rendered !== null) return;
    const shown = bodyRows();
    if (shown.length < firstScreen || shown[0]?.getAttribute('aria-rowindex') !== '2') return;
    if (probe.firstRowNot !== null && shown[0]?.textContent === probe.firstRowNot) return;
    probe.rendered = performance.now();
    probe.domRows = shown.length;
    requestAnimationFrame(() =>
      setTimeout(() => {
        probe.frame = performance.now();
      }),
    );
  };
  document.addEventListener(
    'click',
    (event) => {
      probe.clicked = event.timeStamp;
    },
    true,
  );
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
}

interface Measured {
  /** responseEnd (or, for rows from the query cache, the click) to the first screen of rows in the DOM. */
  dom: number;
  /** Body rows in the DOM at that moment (the window, not the 500). */
  domRows: number;
  /** The same start to the frame after. */
  frame: number;
  /** No request was sent after the click: the rows came from the query cache, timed from the click. */
  cached: boolean;
}

/**
 * The response the rows were rendered from: the last one matching `url` that ended before the rows
 * and, after a click (`since`), was requested after it (an older response for the same page is not
 * what the rows were rendered from). Null when there is none.
 */
function pairedResponse(
  responses: readonly { url: string; start: number; end: number }[],
  url: RegExp,
  rendered: number,
  since: number | null,
): { url: string; start: number; end: number } | null {
  const after = (r: { start: number }) => since === null || r.start >= since;
  return responses.filter((r) => url.test(r.url) && r.end <= rendered && after(r)).at(-1) ?? null;
}

/**
 * Waits for the probe to see the rows and pairs them with their response (see pairedResponse). After a
 * click (`afterClick`) with no new response, the rows came from the query cache: timed from the click.
 */
async function measured(page: Page, url: RegExp, afterClick = false): Promise<Measured> {
  await page.waitForFunction(
    () => window.__audienceGrid !== undefined && window.__audienceGrid.frame !== null,
    undefined,
    { timeout: 30_000 },
  );
  const probe = await page.evaluate(() => window.__audienceGrid);
  if (!probe || probe.rendered === null || probe.frame === null) throw new Error('the grid probe saw nothing');
  const rendered = probe.rendered;
  if (afterClick && probe.clicked === null) throw new Error('the grid probe saw no click');
  const since = afterClick ? probe.clicked : null;
  const domRows = probe.domRows ?? 0;
  const response = pairedResponse(probe.responses, url, rendered, since);
  if (response) return { dom: rendered - response.end, frame: probe.frame - response.end, domRows, cached: false };
  if (since === null) throw new Error(`no /v1/contacts response matching ${url} before the rows rendered`);
  return { dom: rendered - since, frame: probe.frame - since, domRows, cached: true };
}

/** Imports IMPORT_ROWS contacts into the grid tenant when it has fewer than two pages of them. */
async function ensureContacts(gatewayUrl: string): Promise<number> {
  const api = await Api.signIn(gatewayUrl, GRID_LOGIN.email, GRID_LOGIN.password);
  const count = async () =>
    (await api.ok<{ pagination: { count: number } }>('GET', '/v1/contacts?perPage=1')).body.pagination.count;
  const have = await count();
  if (have >= 2 * ROWS) return have;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audience-grid-'));
  try {
    const file = path.join(dir, 'grid.csv');
    await writeImportCsv(file, IMPORT_ROWS);
    const up = await api.upload<ImportJob>('/v1/imports?fileName=grid-bench.csv', file);
    let job = (
      await api.ok<ImportJob>('POST', `/v1/imports/${up.body._id}/start`, {
        mapping: IMPORT_MAPPING.map((t) => (t.startsWith('attr:') ? null : t)),
        has_header: true,
        mode: 'update',
      })
    ).body;
    while (!isImportFinished(job.status)) {
      await new Promise((r) => setTimeout(r, 200));
      job = (await api.ok<ImportJob>('GET', `/v1/imports/${job._id}`)).body;
    }
    if (job.status !== 'completed') throw new Error(`grid import ended ${job.status}: ${job.error ?? ''}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const now = await count();
  if (now < 2 * ROWS) throw new Error(`the grid tenant has ${now} contacts, ${2 * ROWS} needed`);
  return now;
}

export async function gridBench(browser: Browser, shellUrl: string, gatewayUrl: string, runs = 7): Promise<string> {
  const contacts = await ensureContacts(gatewayUrl);
  const { token } = (await new Api(gatewayUrl).ok<{ token: string }>('POST', '/v1/auth/login', GRID_LOGIN)).body;

  const open: Measured[] = [];
  const change: Measured[] = [];
  for (let i = 0; i < runs; i++) {
    const { page, context } = await newSession(browser, shellUrl);
    try {
      await context.addCookies([{ name: 'token', value: token, url: shellUrl }]);
      // tsx names the probe's inner functions through an `__name` helper the page lacks: give it one.
      await context.addInitScript('globalThis.__name ??= (fn) => fn;');
      await context.addInitScript(installProbe, ROWS);
      await page.goto('/engagement/contacts');
      open.push(await measured(page, new RegExp(`[?&]perPage=${ROWS}(&|$)`)));
      // Page changes in the open grid: Next, then Previous, and so on.
      for (let k = 0; k < 2; k++) {
        const target = k % 2 === 0 ? 2 : 1;
        await page.evaluate(() => {
          const probe = window.__audienceGrid;
          if (!probe) return;
          const first = document.querySelector(`table[aria-rowcount="${probe.rows + 1}"] tbody tr[aria-rowindex]`);
          probe.firstRowNot = first?.textContent ?? null;
          probe.clicked = null;
          probe.rendered = null;
          probe.domRows = null;
          probe.frame = null;
        });
        const pagination = page.getByRole('navigation', { name: 'Pagination' });
        await pagination.getByRole('button', { name: target === 2 ? 'Next' : 'Previous', exact: true }).click();
        change.push(await measured(page, new RegExp(`[?&]page=${target}(&|$)`), true));
      }
    } finally {
      await context.close();
    }
  }
  const fetched = change.filter((x) => !x.cached);
  const cached = change.filter((x) => x.cached);
  const row = (label: string, xs: Measured[]): Cell[] => {
    if (xs.length === 0) return [label, 0, '–', '–', '–', '–', '–'];
    const dom = summarise(xs.map((x) => x.dom));
    const frame = summarise(xs.map((x) => x.frame));
    const inDom = [...new Set(xs.map((x) => x.domRows))].sort((a, b) => a - b).join(', ');
    return [label, dom.n, ms(dom.median), ms(dom.p95), ms(frame.median), ms(frame.p95), inDom];
  };
  return [
    `Tenant with ${contacts.toLocaleString('en')} contacts, ${ROWS} per page (localStorage perPage), headless Chromium:`,
    '',
    mdTable([
      ['from /v1/contacts responseEnd to the first screen of the 500 rows', 'n', 'DOM median ms', 'DOM p95 ms', 'next frame median ms', 'next frame p95 ms', 'rows in the DOM'], // prettier-ignore
      row('opening /engagement/contacts', open),
      row('next / previous page (fetched)', fetched),
      row('back to a page in the query cache (from the click)', cached),
    ]),
  ].join('\n');
}

async function main() {
  const { startSystem } = await import('../../scripts/system.mjs');
  const { launch } = await import('../../e2e/lib/browser.ts');
  const system = await startSystem(benchSystemEnv(fs.mkdtempSync(path.join(os.tmpdir(), 'console-bench-'))));
  const browser = await launch();
  try {
    console.log(`\n## Contacts grid in the browser (${new Date().toISOString()})\n`);
    console.log(await gridBench(browser, system.urls.shell, system.urls.gateway));
  } finally {
    await browser.close();
    await system.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await main();
}
