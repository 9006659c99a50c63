// The audience generator: a tenant (plan with contacts and custom attributes, an owner who can sign
// in) with N contacts, 20 custom attributes, 50 lists and ~2 memberships per contact, written with
// set-based SQL in chunks (one INSERT ... SELECT per chunk for contacts and their memberships).
//
// CLI: tsx audience/generate.ts [--contacts N] (--database-url URL | --pglite DIR)
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { hashPassword } from '../../gateway/src/auth/passwords.ts';
import { PLAN_FEATURES, PLAN_KEYS, TENANT_PERMISSIONS, type AttributeType } from '../../gateway/src/contracts.ts';
import { seedPlans } from '../../gateway/src/seed.ts';
import { toChecksumAddress } from '../../gateway/src/lib/eip55.ts';
import { randomHex } from './random-hex.ts';
import { openBenchDb, type BenchDb, type DbTarget } from './db.ts';
import { ATTRIBUTE_SETS, attributeSetsSql, BULK_LOAD_DDL, chunkSql } from './generate-sql.ts';
import {
  ATTRIBUTES,
  CHAINS,
  CITIES,
  COUNTRIES,
  DOMAINS,
  FIRST_NAMES,
  LANGUAGES,
  LAST_NAMES,
  LIST_NAMES,
  TIERS,
  type AttributeSpec,
} from './vocabulary.ts';

export const OWNER_PASSWORD = 'bench-pass-2026';

export interface BenchAttribute {
  id: string;
  key: string;
  type: AttributeType;
}

export interface BenchTenant {
  tenantId: string;
  ownerEmail: string;
  password: string;
  attributes: BenchAttribute[];
}

export interface GeneratedAudience extends BenchTenant {
  contacts: number;
  /** In creation order (oldest first). */
  listIds: string[];
  memberships: number;
  /** Wall-clock seconds: everything up to the commit (inserts and index builds), the index builds alone, VACUUM ANALYZE. */
  insertSeconds: number;
  indexSeconds: number;
  analyzeSeconds: number;
}

export interface GenerateOptions {
  contacts: number;
  /** Rows per INSERT statement. */
  chunk?: number;
  tenantName?: string;
  log?: (line: string) => void;
}

const secondsSince = (t0: number) => (performance.now() - t0) / 1000;

/** A random, EIP-55 checksummed wallet address. */
function randomWallet(): string {
  return toChecksumAddress(`0x${randomHex()}`);
}

/** A plan that has both manage_contacts and custom_attributes. */
function audiencePlan() {
  const key = PLAN_KEYS.find(
    (k) => PLAN_FEATURES[k].includes('manage_contacts') && PLAN_FEATURES[k].includes('custom_attributes'),
  );
  if (!key) throw new Error('no plan has manage_contacts and custom_attributes');
  return key;
}

/**
 * A tenant with an owner who can sign in (OWNER_PASSWORD) and the given custom attributes; no contacts.
 * Attributes get distinct creation times in the order given.
 */
export async function createBenchTenant(
  db: BenchDb,
  name: string,
  attributes: readonly AttributeSpec[] = ATTRIBUTES,
): Promise<BenchTenant> {
  const planIds = await seedPlans(db.handle.db);
  const planId = planIds.get(audiencePlan());
  const suffix = randomBytes(4).toString('hex');
  const ownerEmail = `owner-${suffix}@audience-bench.test`;
  const passwordHash = await hashPassword(OWNER_PASSWORD);
  const [tenant] = await db.query<{ id: string }>('insert into tenants (name, plan_id) values ($1, $2) returning id', [
    `${name} ${suffix}`,
    planId,
  ]);
  if (!tenant) throw new Error('tenant not created');
  await db.query(
    `insert into users (tenant_id, email, password_hash, role, permissions, first_name, last_name, email_confirmed_at)
     values ($1, $2, $3, 'tenant_admin', $4::text[], 'Bench', 'Owner', now())`,
    [tenant.id, ownerEmail, passwordHash, [...TENANT_PERMISSIONS]],
  );
  const rows = await db.query<BenchAttribute & { ord: string }>(
    `insert into custom_attributes (tenant_id, name, key, type, created_at)
     select $1, a.name, a.key, a.type, now() - make_interval(secs => (cardinality($2::text[]) - a.ord)::float8)
     from unnest($2::text[], $3::text[], $4::text[]) with ordinality as a(name, key, type, ord)
     returning id, key, type`,
    [tenant.id, attributes.map((a) => a.name), attributes.map((a) => a.key), attributes.map((a) => a.type)],
  );
  const byKey = new Map(rows.map((r) => [r.key, r]));
  return {
    tenantId: tenant.id,
    ownerEmail,
    password: OWNER_PASSWORD,
    attributes: attributes.map((a) => {
      const row = byKey.get(a.key);
      if (!row) throw new Error(`attribute ${a.key} not created`);
      return { id: row.id, key: row.key, type: row.type };
    }),
  };
}

/** Wallets for rows first..first+n-1: none when i % 10 is 1 or 2 (20%); every row without e-mail (i % 10 = 0) has one. */
function chunkWallets(first: number, n: number): (string | null)[] {
  const out: (string | null)[] = [];
  for (let k = 0; k < n; k++) {
    const r = (first + k) % 10;
    out.push(r === 1 || r === 2 ? null : randomWallet());
  }
  return out;
}

async function createLists(db: BenchDb, tenantId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `insert into lists (tenant_id, name, description, created_at)
     select $1, l.name, 'Generated for the audience benchmark', now() - make_interval(days => (cardinality($2::text[]) - l.ord)::int)
     from unnest($2::text[]) with ordinality as l(name, ord)
     returning id, created_at`,
    [tenantId, LIST_NAMES],
  );
  return rows.map((r) => r.id);
}

/** Counters kept by triggers must equal the real counts; throws when they do not. */
export async function verifyCounters(db: BenchDb, tenantId: string): Promise<string> {
  const counts = await db.query<{ status: string; kept: string | null; real: string | null }>(
    `select coalesce(k.status, r.status) as status, k.n::text as kept, r.n::text as real
     from (select status, n from contact_counts where tenant_id = $1) k
     full join (select status, count(*) as n from contacts where tenant_id = $1 group by status) r using (status)`,
    [tenantId],
  );
  const lists = await db.query<{ id: string; kept: number; real: string }>(
    `select l.id, l.member_count as kept, (select count(*) from list_members m where m.list_id = l.id)::text as real
     from lists l where l.tenant_id = $1`,
    [tenantId],
  );
  const bad = [
    ...counts
      .filter((c) => (c.kept ?? '0') !== (c.real ?? '0'))
      .map((c) => `status ${c.status}: ${c.kept} vs ${c.real}`),
    ...lists.filter((l) => String(l.kept) !== l.real).map((l) => `list ${l.id}: ${l.kept} vs ${l.real}`),
  ];
  if (bad.length) throw new Error(`trigger-kept counters differ from count(*): ${bad.join('; ')}`);
  const total = counts.reduce((n, c) => n + Number(c.real ?? 0), 0);
  const members = lists.reduce((n, l) => n + Number(l.real), 0);
  return `counters match count(*): ${total} contacts in ${counts.length} statuses, ${members} memberships in ${lists.length} lists`;
}

/**
 * Generates a tenant with `contacts` contacts into an open (migrated) database, in one transaction:
 * the secondary indexes and foreign keys of contacts and list_members are dropped first and re-created
 * at the end (as pg_restore does; building an index once is far cheaper than a million index
 * insertions), the counter triggers fire on every chunk. VACUUM ANALYZE afterwards.
 */
export async function generateAudience(db: BenchDb, options: GenerateOptions): Promise<GeneratedAudience> {
  const log = options.log ?? (() => undefined);
  const chunk = options.chunk ?? 50_000;
  const tenant = await createBenchTenant(db, options.tenantName ?? 'Audience bench');
  const listIds = await createLists(db, tenant.tenantId);
  const walletPool = Array.from({ length: 1000 }, randomWallet);
  const text = chunkSql();
  const t0 = performance.now();
  let memberships = 0;
  let indexSeconds = 0;
  const settings: Record<string, string> = {
    // JIT would compile the chunk statement again for every chunk (about a second each) and gain nothing.
    jit: 'off',
    synchronous_commit: 'off',
    maintenance_work_mem: db.kind === 'postgres' ? '512MB' : '128MB',
  };
  await db.session(settings, async (query) => {
    await query('begin');
    try {
      const ddl = await query<{ drop: string; create: string }>(BULK_LOAD_DDL);
      for (const d of [...ddl].reverse()) await query(d.drop);
      await query(attributeSetsSql(), [
        tenant.attributes.map((a) => a.id),
        walletPool,
        COUNTRIES,
        CITIES,
        CHAINS,
        LANGUAGES,
        TIERS,
      ]);
      await query('analyze bench_attribute_sets');
      log(`  ${ATTRIBUTE_SETS.toLocaleString('en')} attribute value sets built in ${secondsSince(t0).toFixed(1)} s`);
      let wallets = chunkWallets(1, Math.min(chunk, options.contacts));
      for (let first = 1; first <= options.contacts; first += chunk) {
        const n = wallets.length;
        const pending = query<{ contacts: number; memberships: number }>(text, [
          tenant.tenantId,
          wallets,
          first - 1,
          listIds,
          FIRST_NAMES,
          LAST_NAMES,
          DOMAINS,
        ]);
        // The next chunk's checksums are computed while the server works on this one.
        const next = first + n;
        wallets = next <= options.contacts ? chunkWallets(next, Math.min(chunk, options.contacts - next + 1)) : [];
        const [r] = await pending;
        memberships += r?.memberships ?? 0;
        const done = first + n - 1;
        if (done % (chunk * 4) === 0 || done === options.contacts || process.env.BENCH_VERBOSE) {
          const at = secondsSince(t0).toFixed(1);
          log(`  ${done.toLocaleString('en')} contacts, ${memberships.toLocaleString('en')} memberships, ${at} s`);
        }
      }
      const t1 = performance.now();
      for (const d of ddl) await query(d.create);
      indexSeconds = secondsSince(t1);
      log(`  indexes and foreign keys re-created in ${indexSeconds.toFixed(1)} s`);
      await query('commit');
    } catch (error) {
      await query('rollback');
      throw error;
    }
  });
  const insertSeconds = secondsSince(t0);
  const t1 = performance.now();
  await db.query('vacuum (analyze) contacts, list_members, lists, contact_counts, custom_attributes');
  const analyzeSeconds = secondsSince(t1);
  return {
    ...tenant,
    contacts: options.contacts,
    memberships,
    listIds,
    insertSeconds,
    indexSeconds,
    analyzeSeconds,
  };
}

// ---------------------------------------------------------------------------------------------
// CLI
// ---------------------------------------------------------------------------------------------

function parseArgs(argv: string[]): { contacts: number; target: DbTarget } {
  let contacts = 1_000_000;
  let target: DbTarget | null = null;
  for (let k = 0; k < argv.length; k++) {
    const arg = argv[k];
    const value = argv[k + 1];
    if (arg === '--contacts' && value) contacts = Number(value);
    else if (arg === '--database-url' && value) target = { kind: 'postgres', url: value };
    else if (arg === '--pglite' && value) target = { kind: 'pglite', dir: path.resolve(value) };
    else continue;
    k++;
  }
  if (!target || !Number.isInteger(contacts) || contacts < 1) {
    throw new Error('usage: tsx audience/generate.ts [--contacts N] (--database-url URL | --pglite DIR)');
  }
  return { contacts, target };
}

async function main() {
  const { contacts, target } = parseArgs(process.argv.slice(2));
  const db = await openBenchDb(target);
  try {
    console.log(`Generating ${contacts.toLocaleString('en')} contacts on ${db.label}`);
    const g = await generateAudience(db, { contacts, log: (l) => console.log(l) });
    console.log(await verifyCounters(db, g.tenantId));
    console.log(
      `contacts + memberships: ${g.insertSeconds.toFixed(1)} s (index builds ${g.indexSeconds.toFixed(1)} s), vacuum analyze: ${g.analyzeSeconds.toFixed(1)} s`,
    );
    console.log(`tenant ${g.tenantId}: sign in as ${g.ownerEmail} / ${g.password}`);
  } finally {
    await db.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await main();
}
