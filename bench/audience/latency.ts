// Latency of the audience endpoints on a generated tenant, through an in-process gateway over HTTP:
// contacts pages (every sort field and order, first / middle / last / random pages, 10 and 100 per
// page), prefix search on e-mail, wallet and name, list and status filters, and the count of a
// 3-rule segment. Each figure is the time from sending the request to the last byte of the answer.
import {
  CONTACT_SORT_FIELDS,
  CONTACT_STATUSES,
  type ContactListQuery,
  type ContactPage,
  type SegmentGroup,
  type SegmentPreview,
} from '../../gateway/src/contracts.ts';
import type { BenchDb } from './db.ts';
import { explainContacts, explainSegmentCount } from './explain.ts';
import { Api } from './gateway.ts';
import type { GeneratedAudience } from './generate.ts';
import { int, mdTable, ms, summarise, verdict, type Cell, type Summary } from './report.ts';
import { seededRandom as prng } from '../../gateway/test/seeded-random.ts';

export const PAGE_GOAL_MS = 50;
export const SEGMENT_GOAL_MS = 1000;

/** The measures besides plain pages, in the order they are reported. */
const KEYS = {
  email: 'search: e-mail prefix (8 characters)',
  wallet: 'search: wallet prefix (0x + 6 hex)',
  name: 'search: last-name prefix (4 letters)',
  list: 'filter: list (first or random page)',
  status: 'filter: status not subscribed (first or random page)',
  segment: 'segment count: status = subscribed AND in list AND nft_count > N',
} as const;

type Probe =
  | { group: 'page'; key: string; position: string; query: ContactListQuery }
  | { group: 'search' | 'filter'; key: string; query: ContactListQuery }
  | { group: 'segment'; key: string; rule: SegmentGroup };

interface Sample {
  probe: Probe;
  ms: number;
  /** Matching contacts the endpoint reported. */
  count: number;
}

export interface LatencyFigure {
  measure: string;
  summary: Summary;
  /** Median matching contacts, where it says something. */
  matches: number | null;
  goalMs: number | null;
}

export interface LatencyResult {
  figures: LatencyFigure[];
  /** Per sort field, order and page size; per page position. */
  detail: string;
  /** EXPLAIN (ANALYZE) of the slowest request of each measure that missed its goal. */
  explains: string[];
}

export interface LatencyOptions {
  /** Random pages per sort field, order and page size (besides first, middle and last). */
  randomPages?: number;
  /** Samples per search kind and filter. */
  samples?: number;
  /** EXPLAIN the slowest request of a measure that misses its goal. */
  explain?: boolean;
  log?: (line: string) => void;
}

function shuffle<T>(xs: T[], random: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [xs[i], xs[j]] = [xs[j] as T, xs[i] as T];
  }
  return xs;
}

function contactQuery(q: Partial<ContactListQuery>): ContactListQuery {
  return { page: 1, perPage: 10, sortField: 'created_at', sortOrder: 'desc', searchString: '', ...q };
}

function queryString(q: ContactListQuery): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '') params.set(k, String(v));
  return params.toString();
}

interface SampleContact {
  email: string | null;
  wallet: string | null;
  last_name: string;
}

/** Contacts to take search terms from: a block sample of the tenant (cheap at any size). */
async function sampleContacts(db: BenchDb, tenantId: string, total: number): Promise<SampleContact[]> {
  const percent = Math.min(100, Math.max(0.05, (3000 / Math.max(1, total)) * 100));
  const rows = await db.query<SampleContact>(
    `select email, wallet, last_name from contacts tablesample system (${percent.toFixed(3)}) where tenant_id = $1 limit 3000`,
    [tenantId],
  );
  if (rows.length >= 50) return rows;
  return db.query<SampleContact>(
    'select email, wallet, last_name from contacts where tenant_id = $1 order by random() limit 500',
    [tenantId],
  );
}

function probes(g: GeneratedAudience, contacts: SampleContact[], o: Required<LatencyOptions>, random: () => number) {
  const list: Probe[] = [];
  const pick = <T>(xs: readonly T[]): T => {
    const x = xs[Math.floor(random() * xs.length)];
    if (x === undefined) throw new Error('nothing to pick from');
    return x;
  };
  for (const sortField of CONTACT_SORT_FIELDS) {
    for (const sortOrder of ['asc', 'desc'] as const) {
      for (const perPage of [10, 100]) {
        const last = Math.max(1, Math.ceil(g.contacts / perPage));
        const pages: [string, number][] = [
          ['first', 1],
          ['middle', Math.ceil(last / 2)],
          ['last', last],
        ];
        for (let r = 0; r < o.randomPages; r++) pages.push(['random', 1 + Math.floor(random() * last)]);
        for (const [position, page] of pages) {
          const key = `${sortField} ${sortOrder}, ${perPage} per page`;
          list.push({ group: 'page', key, position, query: contactQuery({ sortField, sortOrder, perPage, page }) });
        }
      }
    }
  }
  const withEmail = contacts.filter((c) => c.email);
  const withWallet = contacts.filter((c) => c.wallet);
  const withName = contacts.filter((c) => c.last_name.length >= 4);
  for (let k = 0; k < o.samples; k++) {
    const email = pick(withEmail).email ?? '';
    const wallet = pick(withWallet).wallet ?? '';
    const name = pick(withName).last_name;
    list.push({ group: 'search', key: KEYS.email, query: contactQuery({ searchString: email.slice(0, 8) }) }); // prettier-ignore
    list.push({ group: 'search', key: KEYS.wallet, query: contactQuery({ searchString: wallet.slice(0, 8).toLowerCase() }) }); // prettier-ignore
    list.push({ group: 'search', key: KEYS.name, query: contactQuery({ searchString: name.slice(0, 4).toLowerCase() }) }); // prettier-ignore
    const listId = pick(g.listIds);
    const listLast = Math.ceil(g.contacts / 25 / 10); // ~2 of 50 lists per contact: ~1/25 of the tenant
    const listPage = k % 2 === 0 ? 1 : 1 + Math.floor(random() * listLast);
    list.push({ group: 'filter', key: KEYS.list, query: contactQuery({ listId, page: listPage }) });
    const status = pick(CONTACT_STATUSES.filter((s) => s !== 'subscribed'));
    const statusPage = k % 2 === 0 ? 1 : 1 + Math.floor(random() * Math.ceil((g.contacts * 0.03) / 10));
    list.push({ group: 'filter', key: KEYS.status, query: contactQuery({ status, page: statusPage }) });
  }
  const nft = g.attributes.find((a) => a.key === 'nft_count');
  if (!nft) throw new Error('the generated tenant has no nft_count attribute');
  for (let k = 0; k < o.samples; k++) {
    const rule: SegmentGroup = {
      combinator: 'and',
      rules: [
        { field: 'status', operator: '=', value: 'subscribed' },
        { field: 'list', operator: 'in', value: [pick(g.listIds)] },
        { field: `attr.${nft.key}`, operator: '>', value: pick([10, 50, 100, 200, 400]) },
      ],
    };
    list.push({ group: 'segment', key: KEYS.segment, rule });
  }
  return list;
}

async function run(api: Api, probe: Probe): Promise<Sample> {
  if (probe.group === 'segment') {
    const r = await api.ok<SegmentPreview>('POST', '/v1/segments/preview', { rule: probe.rule, limit: 0 });
    return { probe, ms: r.ms, count: r.body.count };
  }
  const r = await api.ok<ContactPage>('GET', `/v1/contacts?${queryString(probe.query)}`);
  const expected = Math.min(probe.query.perPage, Math.max(0, r.body.pagination.count - (probe.query.page - 1) * probe.query.perPage)); // prettier-ignore
  if (r.body.records.length !== expected) {
    throw new Error(`${probe.key} page ${probe.query.page}: ${r.body.records.length} rows, expected ${expected}`);
  }
  return { probe, ms: r.ms, count: r.body.pagination.count };
}

const median = (xs: number[]) => summarise(xs).median;

export async function latencyBench(
  db: BenchDb,
  api: Api,
  g: GeneratedAudience,
  options: LatencyOptions = {},
): Promise<LatencyResult> {
  const o: Required<LatencyOptions> = {
    randomPages: options.randomPages ?? 3,
    samples: options.samples ?? 20,
    explain: options.explain ?? false,
    log: options.log ?? (() => undefined),
  };
  const random = prng(20261122);
  const contacts = await sampleContacts(db, g.tenantId, g.contacts);
  const list = shuffle(probes(g, contacts, o, random), random);
  // Warm up the process (code paths, prepared plans), not the data: 5 first pages.
  for (let k = 0; k < 5; k++) await api.ok('GET', '/v1/contacts?perPage=10');
  const samples: Sample[] = [];
  const t0 = performance.now();
  for (const probe of list) samples.push(await run(api, probe));
  o.log(`  ${samples.length} requests in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const pages = samples.filter((s) => s.probe.group === 'page');
  const of = (pred: (s: Sample) => boolean) => samples.filter(pred);
  const figures: (LatencyFigure & { slowest: Sample | null })[] = [
    { measure: 'contacts page, any sort, any page, 10 per page', sel: (s: Sample) => s.probe.group === 'page' && s.probe.query.perPage === 10, goal: PAGE_GOAL_MS, counts: false }, // prettier-ignore
    { measure: 'contacts page, any sort, any page, 100 per page', sel: (s: Sample) => s.probe.group === 'page' && s.probe.query.perPage === 100, goal: PAGE_GOAL_MS, counts: false }, // prettier-ignore
    ...Object.values(KEYS).map((key) => ({
      measure: key,
      sel: (s: Sample) => s.probe.key === key,
      goal: key.startsWith('segment') ? SEGMENT_GOAL_MS : key.startsWith('search') ? PAGE_GOAL_MS : null,
      counts: true,
    })),
  ].map((f) => {
    const picked = of(f.sel);
    return {
      measure: f.measure,
      summary: summarise(picked.map((s) => s.ms)),
      matches: f.counts ? median(picked.map((s) => s.count)) : null,
      goalMs: f.goal,
      slowest: picked.reduce<Sample | null>((a, s) => (a && a.ms >= s.ms ? a : s), null),
    };
  });

  const detailRows: Cell[][] = [['sort', 'per page', 'n', 'median ms', 'p95 ms', 'max ms']];
  for (const sortField of CONTACT_SORT_FIELDS) {
    for (const sortOrder of ['asc', 'desc'] as const) {
      for (const perPage of [10, 100]) {
        const key = `${sortField} ${sortOrder}, ${perPage} per page`;
        const s = summarise(pages.filter((p) => p.probe.key === key).map((p) => p.ms));
        detailRows.push([`${sortField} ${sortOrder}`, perPage, s.n, ms(s.median), ms(s.p95), ms(s.max)]);
      }
    }
  }
  const positionRows: Cell[][] = [['page position', 'n', 'median ms', 'p95 ms', 'max ms']];
  for (const position of ['first', 'middle', 'last', 'random']) {
    const s = summarise(pages.filter((p) => p.probe.group === 'page' && p.probe.position === position).map((p) => p.ms)); // prettier-ignore
    positionRows.push([position, s.n, ms(s.median), ms(s.p95), ms(s.max)]);
  }
  const detail = [
    `Contacts pages by sort (${int(g.contacts)} contacts):`,
    '',
    mdTable(detailRows),
    '',
    'By page position (all sorts, both page sizes):',
    '',
    mdTable(positionRows),
  ].join('\n');

  const explains: string[] = [];
  if (o.explain) {
    for (const f of figures) {
      const s = f.slowest;
      if (!s || f.goalMs === null || f.summary.p95 < f.goalMs) continue;
      const what = s.probe.group === 'segment' ? JSON.stringify(s.probe.rule) : queryString(s.probe.query);
      const head = `### ${f.measure}: p95 ${ms(f.summary.p95)} ms, slowest request ${ms(s.ms)} ms (${what})`;
      try {
        const e =
          s.probe.group === 'segment'
            ? await explainSegmentCount(db, g.tenantId, s.probe.rule)
            : await explainContacts(db, g.tenantId, s.probe.query);
        const share = `Its queries, run again under EXPLAIN ANALYZE: ${ms(e.executionMs)} ms of execution.`;
        // Plans only where the database is the slow part; otherwise the time goes to the gateway process.
        explains.push(
          e.executionMs >= f.goalMs / 2
            ? `${head}\n\n${share}\n\n\`\`\`\n${e.text}\n\`\`\``
            : `${head}\n\n${share} The rest is outside the database (gateway process, serialisation, machine load).`,
        );
      } catch (error) {
        explains.push(`${head}\n\n(EXPLAIN failed: ${error instanceof Error ? error.message : String(error)})`);
      }
    }
  }
  return {
    figures: figures.map(({ slowest: _slowest, ...f }) => f),
    detail,
    explains,
  };
}

/** Markdown rows for a set of figures of one or more backends, side by side. */
export function latencyTable(byBackend: { label: string; result: LatencyResult; goals: boolean }[]): string {
  const first = byBackend[0];
  if (!first) return '';
  const head: Cell[] = ['measure', ...byBackend.map((b) => `${b.label}: median / p95 ms (n)`), 'matches', 'goal'];
  const rows: Cell[][] = [head];
  for (const [i, f] of first.result.figures.entries()) {
    const cells: Cell[] = [f.measure];
    for (const b of byBackend) {
      const s = b.result.figures[i]?.summary;
      cells.push(s ? `${ms(s.median)} / ${ms(s.p95)} (${s.n})` : '—');
    }
    cells.push(f.matches === null ? '' : int(f.matches));
    const judged = byBackend.filter((b) => b.goals);
    const goal = f.goalMs;
    if (goal === null) cells.push('—');
    else {
      const ok = judged.every((b) => (b.result.figures[i]?.summary.p95 ?? Infinity) < goal);
      const what = goal >= 1000 ? `< ${goal / 1000} s` : `p95 < ${goal} ms`;
      cells.push(judged.length ? `${what} (${judged.map((b) => b.label).join(', ')}): ${verdict(ok)}` : what);
    }
    rows.push(cells);
  }
  return mdTable(rows);
}
