// Shared by the audience suites (contacts, lists, custom attributes, isolation).
import { eq } from 'drizzle-orm';
import { tenants } from '../src/db/schema';
import type { Reply, TestGateway } from './helpers';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** One call with a token and an optional JSON body. */
export function call<T = unknown>(
  gw: TestGateway,
  method: Method,
  path: string,
  token: string,
  body?: unknown,
): Promise<Reply<T>> {
  return gw.request<T>(path, { method, token, body });
}

export async function tenantId(gw: TestGateway, name: string): Promise<string> {
  const [row] = await gw.handle.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.name, name));
  if (!row) throw new Error(`no tenant ${name}`);
  return row.id;
}

/** A query string from defined values. */
export function qs(params: Record<string, string | number | undefined>): string {
  const entries = Object.entries(params).filter((e): e is [string, string | number] => e[1] !== undefined);
  return new URLSearchParams(entries.map(([k, v]) => [k, String(v)])).toString();
}

/** A CSV text as rows of cells (RFC 4180, CRLF lines; enough for the suites' own exports). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}
