// CSV import through the API (upload, start, poll until finished) into a fresh tenant, and in the
// same run a raw COPY of the same file into a bare table: rows per second and their ratio.
import { planColumns } from '../../gateway/src/audience/import/import-mapping.ts';
import { ImportSource } from '../../gateway/src/audience/import/import-source.ts';
import { isImportFinished, type ImportJob } from '../../gateway/src/contracts.ts';
import type { BenchDb } from './db.ts';
import { Api } from './gateway.ts';
import { createBenchTenant } from './generate.ts';
import { COPY_TABLE_SQL, IMPORT_ATTRIBUTES, IMPORT_MAPPING, type CsvStats } from './import-csv.ts';

export const IMPORT_GOAL_ROWS_PER_S = 40_000;
export const IMPORT_GOAL_RATIO = 0.3;

export interface ImportResult {
  rows: number;
  bytes: number;
  /** Bad rows written into the file. */
  badRows: number;
  job: ImportJob;
  uploadSeconds: number;
  /** From the start call to the job finishing. */
  processSeconds: number;
  /** Upload + start + processing: what the rate and the ratio are computed on. */
  totalSeconds: number;
  copySeconds: number;
  copyRows: number;
  /** rows / totalSeconds */
  importRate: number;
  /** rows / processSeconds */
  processRate: number;
  copyRate: number;
  ratio: number;
  /** The gateway alone: the file read, parsed and checked row by row as an import does, no database. */
  reading: { seconds: number; rate: number };
  /** The database alone: the file's rows INSERT…SELECTed into contacts in one statement (rolled back). */
  floor: { rows: number; seconds: number; rate: number } | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function importBench(
  db: BenchDb,
  gatewayUrl: string,
  file: string,
  csv: CsvStats,
  log: (line: string) => void = () => undefined,
): Promise<ImportResult> {
  const tenant = await createBenchTenant(db, 'Import bench', IMPORT_ATTRIBUTES);
  const api = await Api.signIn(gatewayUrl, tenant.ownerEmail, tenant.password);

  const t0 = performance.now();
  const uploaded = await api.upload<ImportJob>('/v1/imports?fileName=audience-bench.csv', file);
  const uploadSeconds = (performance.now() - t0) / 1000;
  const t1 = performance.now();
  let job = (
    await api.ok<ImportJob>('POST', `/v1/imports/${uploaded.body._id}/start`, {
      mapping: IMPORT_MAPPING,
      has_header: true,
      mode: 'update',
    })
  ).body;
  let lastLog = performance.now();
  while (!isImportFinished(job.status)) {
    await sleep(200);
    job = (await api.ok<ImportJob>('GET', `/v1/imports/${job._id}`)).body;
    if (performance.now() - lastLog > 15_000) {
      lastLog = performance.now();
      log(`  import ${job.status}: ${job.rows_done.toLocaleString('en')} rows, ${((performance.now() - t1) / 1000).toFixed(0)} s`); // prettier-ignore
    }
  }
  const t2 = performance.now();
  if (job.status !== 'completed') throw new Error(`the import ended ${job.status}: ${job.error ?? ''}`);
  const processSeconds = (t2 - t1) / 1000;
  const totalSeconds = (t2 - t0) / 1000;

  await db.query('drop table if exists bench_import_copy');
  await db.query(COPY_TABLE_SQL);
  const t3 = performance.now();
  const copied = await db.copyCsv('bench_import_copy', file);
  const copySeconds = (performance.now() - t3) / 1000;
  const [counted] = await db.query<{ n: number }>('select count(*)::int as n from bench_import_copy');
  const copyRows = counted?.n ?? copied;
  const floor = db.kind === 'postgres' ? await insertFloor(db) : null;
  const reading = await readingRate(file, csv.rows);
  await db.query('drop table bench_import_copy');

  const importRate = csv.rows / totalSeconds;
  const copyRate = copyRows / copySeconds;
  return {
    rows: csv.rows,
    bytes: csv.bytes,
    badRows: csv.bad,
    job,
    uploadSeconds,
    processSeconds,
    totalSeconds,
    copySeconds,
    copyRows,
    importRate,
    processRate: csv.rows / processSeconds,
    copyRate,
    ratio: importRate / copyRate,
    floor,
    reading,
  };
}

/** The importer's own share: ImportSource over the file (records, fields, values, reasons, duplicates). */
async function readingRate(file: string, rows: number): Promise<ImportResult['reading']> {
  const attributes = IMPORT_ATTRIBUTES.map((a) => ({ id: `id-${a.key}`, key: a.key, name: a.name, type: a.type }));
  const planned = planColumns(IMPORT_MAPPING, attributes);
  if (!planned.ok) throw new Error(`mapping needs ${planned.missingKey}`);
  const t0 = performance.now();
  const source = await ImportSource.open(file, {
    hasHeader: true,
    plan: planned.plan,
    mappedColumns: IMPORT_MAPPING.length,
  });
  try {
    while (await source.next(40_000)) {
      // read only
    }
  } finally {
    await source.close();
  }
  const seconds = (performance.now() - t0) / 1000;
  return { seconds, rate: rows / seconds };
}

/**
 * What the database itself costs, with no gateway in the way: the rows COPYed into
 * bench_import_copy inserted into a new tenant's contacts in one INSERT…SELECT (the same nine
 * indexes, foreign key and triggers, the three attributes as JSON), rows the importer would refuse
 * or take as duplicates left out, then rolled back. An import cannot be faster than this. (COPY reads
 * an empty CSV field as NULL.)
 */
async function insertFloor(db: BenchDb): Promise<ImportResult['floor']> {
  const tenant = await createBenchTenant(db, 'Import floor', IMPORT_ATTRIBUTES);
  const id = (key: string) => tenant.attributes.find((a) => a.key === key)?.id ?? key;
  return db.session({}, async (query) => {
    await query('begin');
    try {
      const t0 = performance.now();
      const [row] = await query<{ n: number }>(
        `with inserted as (
           insert into contacts (tenant_id, email, wallet, first_name, last_name, status, source, attributes)
           select $1, lower(email), wallet, coalesce(first_name, ''), coalesce(last_name, ''), 'subscribed', 'import',
             jsonb_strip_nulls(jsonb_build_object($2::text, tier, $3::text, nft_count, $4::text, joined_on))
           from bench_import_copy
           where (email is null or email like '%@%') and (wallet is null or length(wallet) = 42)
             and (email is not null or wallet is not null)
           on conflict do nothing
           returning 1
         )
         select count(*)::int as n from inserted`,
        [tenant.tenantId, id('tier'), id('nft_count'), id('joined_on')],
      );
      const seconds = (performance.now() - t0) / 1000;
      const rows = row?.n ?? 0;
      return { rows, seconds, rate: rows / seconds };
    } finally {
      await query('rollback');
    }
  });
}
