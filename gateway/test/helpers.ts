// One gateway per test file, over real HTTP, on a database of its own, migrated and seeded (or a copy
// of a template that is, test/db-template.ts):
// - default: an in-memory PGlite;
// - with TEST_DATABASE_URL (a PostgreSQL server, e.g. postgres://postgres@127.0.0.1:5432/postgres):
//   a database with a random name created on that server and dropped at the end.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import PostalMime from 'postal-mime';
import { buildApp, type BuildOptions } from '../src/app';
import { type Config, type Env, loadConfig } from '../src/config';
import { type DatabaseHandle, openDatabase } from '../src/db/index';
import { seed } from '../src/seed';
import { testPlatformKeyFile } from './platform-key';
import { databaseUrl, seededTemplate, seedOptions } from './db-template';
import { sessionChanged } from '../src/auth/session-cache';

export const LOGINS = {
  admin: { email: 'admin@console.test', password: 'admin-pass-2026' },
  global: { email: 'global@console.test', password: 'global-pass-2026' },
  acmeOwner: { email: 'owner@acme.test', password: 'owner-pass-2026' },
  acmeStaff: { email: 'staff@acme.test', password: 'staff-pass-2026' },
  basicOwner: { email: 'owner@basic.test', password: 'basic-pass-2026' },
  labOwner: { email: 'owner@lab.test', password: 'lab-pass-2026' },
} as const;
export type Who = keyof typeof LOGINS;

export interface Reply<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  method?: string;
  token?: string | null;
  body?: unknown;
  /** Sent as is (no JSON encoding); set `contentType` as needed. */
  rawBody?: string;
  contentType?: string | null;
  headers?: Record<string, string>;
}

export interface Mail {
  to: string[];
  subject: string;
  text: string;
  file: string;
}

export interface TestGateway {
  url: string;
  app: FastifyInstance;
  handle: DatabaseHandle;
  config: Config;
  request<T = unknown>(path: string, options?: RequestOptions): Promise<Reply<T>>;
  post<T = unknown>(
    path: string,
    body: unknown,
    token?: string | null,
    headers?: Record<string, string>,
  ): Promise<Reply<T>>;
  get<T = unknown>(path: string, token?: string | null): Promise<Reply<T>>;
  login(who: Who): Promise<string>;
  mails(): Promise<Mail[]>;
  /** Waits for the n-th (1-based) mail to `to` whose subject matches. */
  waitForMail(to: string, subject: RegExp, n?: number): Promise<Mail>;
  /**
   * After a test wrote users, tenants or plans straight to the database: does what the gateway's own
   * writers do after a commit (auth/session-cache.ts `sessionChanged`). Without it the next request
   * depends on when the database's notification arrives, which on a PostgreSQL server is a moment
   * later (the session-cache tests cover that path themselves).
   */
  sessionsChanged(): void;
  close(): Promise<void>;
}

/** A new database on the server at `adminUrl`: empty, or a copy of `template`. */
async function createServerDatabase(
  adminUrl: string,
  template: string | null,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `gateway_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"${template ? ` template "${template}"` : ''}`);
  } finally {
    await admin.end();
  }
  return {
    url: databaseUrl(adminUrl, name),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** `build`: more of the app's build options (extra job queues, a mailer, a clock). */
export async function startGateway(
  env: Env = {},
  build: Pick<BuildOptions, 'extraJobs' | 'mailer' | 'clock'> = {},
): Promise<TestGateway> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-test-'));
  const serverUrl = process.env.TEST_DATABASE_URL || null;
  // A request waits up to 30 s for its turn (lib/admission.ts), not 1 s: the suites share a busy
  // machine, where a few concurrent requests of a test may wait longer; tests of admission set their own.
  const loaded = loadConfig({
    GATEWAY_DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    ADMISSION_MAX_WAIT_MS: '30000',
    ...(env.PLATFORM_DKIM_PRIVATE_KEY ? {} : { PLATFORM_DKIM_PRIVATE_KEY_FILE: testPlatformKeyFile() }),
    ...env,
  });
  const template = await seededTemplate(serverUrl, seedOptions(loaded));
  const serverDb = serverUrl
    ? await createServerDatabase(serverUrl, template && 'database' in template ? template.database : null)
    : null;
  const config: Config = { ...loaded, databaseUrl: serverDb?.url ?? null, pgliteDir: 'memory://' };
  const pgliteSnapshot = template && 'snapshot' in template ? template.snapshot : undefined;
  const handle = await openDatabase({ ...config, pgliteSnapshot });
  if (!template) {
    await handle.migrate();
    await seed(handle.db, seedOptions(config));
  }
  const app = await buildApp({ ...build, db: handle.db, config });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  async function request<T>(p: string, o: RequestOptions = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    let body: string | undefined;
    if (o.rawBody !== undefined) body = o.rawBody;
    else if (o.body !== undefined) body = JSON.stringify(o.body);
    const contentType = o.contentType === undefined ? (body !== undefined ? 'application/json' : null) : o.contentType;
    if (contentType) headers['content-type'] = contentType;
    const res = await fetch(`${url}${p}`, { method: o.method ?? (body !== undefined ? 'POST' : 'GET'), headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  async function mails(): Promise<Mail[]> {
    if (!fs.existsSync(config.outboxDir)) return [];
    const files = fs
      .readdirSync(config.outboxDir)
      .filter((f) => f.endsWith('.eml'))
      .sort();
    return Promise.all(
      files.map(async (f) => {
        const file = path.join(config.outboxDir, f);
        const parsed = await PostalMime.parse(fs.readFileSync(file));
        return {
          to: (parsed.to ?? []).map((a) => ('address' in a && a.address ? a.address : '')),
          subject: parsed.subject ?? '',
          text: parsed.text ?? '',
          file,
        };
      }),
    );
  }

  const gw: TestGateway = {
    url,
    app,
    handle,
    config,
    request,
    post: (p, body, token, headers) => request(p, { body, token, headers }),
    get: (p, token) => request(p, { token }),
    async login(who) {
      const r = await request<{ token: string }>('/v1/auth/login', { body: LOGINS[who] });
      if (r.status !== 200) throw new Error(`login ${who}: ${r.status} ${r.text}`);
      return r.body.token;
    },
    mails,
    async waitForMail(to, subject, n = 1) {
      const end = Date.now() + 10_000;
      for (;;) {
        const found = (await mails()).filter((m) => m.to.includes(to) && subject.test(m.subject));
        const mail = found[n - 1];
        if (mail) return mail;
        if (Date.now() > end) throw new Error(`no mail #${n} to ${to} matching ${subject}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    sessionsChanged: () => sessionChanged(handle.db, 'all'),
    async close() {
      await app.close();
      await handle.close();
      await serverDb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return gw;
}

/** The first link in a mail's text starting with `prefix`. */
export function linkIn(mail: Mail, prefix: string): string {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`${escaped}\\S+`).exec(mail.text);
  if (!m) throw new Error(`no link ${prefix}… in mail "${mail.subject}"`);
  return m[0];
}

/** A 4xx body: message, optional field errors, never a stack. */
export interface ErrorBody {
  message: string;
  errors?: Record<string, string[]>;
}
