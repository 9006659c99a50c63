// An in-process gateway on a benchmark database (buildApp, listening on a free port), and a tiny
// HTTP client that times each call from request start to the last byte of the body.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../gateway/src/app.ts';
import { loadConfig } from '../../gateway/src/config.ts';
import type { BenchDb } from './db.ts';

export interface BenchGateway {
  url: string;
  app: Awaited<ReturnType<typeof buildApp>>;
  close(): Promise<void>;
}

export async function startBenchGateway(db: BenchDb): Promise<BenchGateway> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'audience-bench-gw-'));
  const config = {
    ...loadConfig({
      GATEWAY_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      LOGIN_THROTTLE_ACCOUNT_MAX: '1000000',
      LOGIN_THROTTLE_ADDRESS_MAX: '1000000',
      IMPORT_POLL_MS: '200',
    }),
    databaseUrl: db.kind === 'postgres' ? 'postgres://in-process' : null,
  };
  const app = await buildApp({ db: db.handle.db, config });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    app,
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Timed<T = unknown> {
  ms: number;
  status: number;
  body: T;
}

export class Api {
  constructor(
    readonly url: string,
    private token: string | null = null,
  ) {}

  static async signIn(url: string, email: string, password: string): Promise<Api> {
    const api = new Api(url);
    const r = await api.call<{ token?: string }>('POST', '/v1/auth/login', { email, password });
    if (r.status !== 200 || !r.body.token) throw new Error(`sign-in as ${email} failed: ${r.status}`);
    api.token = r.body.token;
    return api;
  }

  /** A JSON call, timed to the end of the response body. */
  async call<T = unknown>(method: string, p: string, body?: unknown): Promise<Timed<T>> {
    const headers: Record<string, string> = {};
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const t0 = performance.now();
    const res = await fetch(`${this.url}${p}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const ms = performance.now() - t0;
    return { ms, status: res.status, body: text ? JSON.parse(text) : null };
  }

  /** The same, failing on anything but 2xx. */
  async ok<T = unknown>(method: string, p: string, body?: unknown): Promise<Timed<T>> {
    const r = await this.call<T>(method, p, body);
    if (r.status < 200 || r.status > 299) {
      throw new Error(`${method} ${p} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 500)}`);
    }
    return r;
  }

  /** Uploads a file as the raw body, streamed from disk. */
  upload<T = unknown>(p: string, file: string): Promise<Timed<T>> {
    const t0 = performance.now();
    return new Promise((resolve, reject) => {
      const req = http.request(
        `${this.url}${p}`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${this.token ?? ''}`,
            'content-type': 'text/csv',
            'content-length': fs.statSync(file).size,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const status = res.statusCode ?? 0;
            if (status < 200 || status > 299) reject(new Error(`upload answered ${status}: ${text.slice(0, 500)}`));
            else resolve({ ms: performance.now() - t0, status, body: text ? JSON.parse(text) : null });
          });
        },
      );
      req.on('error', reject);
      fs.createReadStream(file, { highWaterMark: 1 << 20 })
        .on('error', reject)
        .pipe(req);
    });
  }
}
