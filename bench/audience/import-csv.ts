// The import benchmark's CSV: N rows of e-mail, wallet, names, status and three custom attribute
// columns (text, number, date), about 2% of them bad in the ways real files are bad.
import fs from 'node:fs';
import { toChecksumAddress } from '../../gateway/src/lib/eip55.ts';
import { randomHex } from './random-hex.ts';
import type { AttributeSpec } from './vocabulary.ts';
import { FIRST_NAMES, LAST_NAMES, DOMAINS, TIERS } from './vocabulary.ts';

export const IMPORT_HEADER = ['email', 'wallet', 'first_name', 'last_name', 'status', 'tier', 'nft_count', 'joined_on'];
/** The custom attributes the three last columns map to. */
export const IMPORT_ATTRIBUTES: readonly AttributeSpec[] = [
  { key: 'tier', name: 'Tier', type: 'text', fill: 90 },
  { key: 'nft_count', name: 'NFT count', type: 'number', fill: 80 },
  { key: 'joined_on', name: 'Joined on', type: 'date', fill: 70 },
];
/** Column targets, in IMPORT_HEADER order (StartImportBody.mapping). */
export const IMPORT_MAPPING = ['email', 'wallet', 'first_name', 'last_name', 'status', 'attr:tier', 'attr:nft_count', 'attr:joined_on']; // prettier-ignore

const STATUSES = ['subscribed', 'subscribed', 'subscribed', 'subscribed', 'unsubscribed', 'Subscribed', 'yes', ''];

/**
 * Every 50th row (2%) is bad, each in one of these ways. All of them are well-formed CSV, so a raw
 * COPY of the same file into a bare table (the baseline) reads every row.
 */
const BAD_KINDS = [
  'bad e-mail',
  'bad wallet',
  'wallet checksum',
  'no identity',
  'bad status',
  'bad number',
  'bad date',
  'duplicate',
] as const;

export interface CsvStats {
  rows: number;
  bytes: number;
  bad: number;
  seconds: number;
}

/** A deterministic cheap hash of a row number (xorshift-multiply). */
function hash(i: number, seed: number): number {
  let x = (i * 0x9e3779b1 + seed * 0x85ebca6b) >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

const at = <T>(xs: readonly T[], n: number): T => xs[n % xs.length] as T;

function quoteIfNeeded(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** One line (without the line break); bad rows per BAD_KINDS. */
function row(i: number, wallets: Map<number, string>): { line: string; bad: boolean } {
  const first = at(FIRST_NAMES, hash(i, 1));
  const last = at(LAST_NAMES, hash(i, 2));
  const r = hash(i, 3) % 100;
  let email = r < 10 ? '' : `${first}.${last}.${i}@${at(DOMAINS, hash(i, 4))}`;
  if (r >= 10 && r < 15) email = email.toUpperCase(); // stored lower-cased
  // ~80% have a wallet, every row without an e-mail has one; half checksummed, half lower-case.
  const hex = randomHex();
  let wallet = r >= 10 && r < 30 ? '' : hash(i, 5) % 2 ? toChecksumAddress(`0x${hex}`) : `0x${hex}`;
  if (wallet) wallets.set(i, wallet);
  let status = at(STATUSES, hash(i, 6));
  const tier = hash(i, 7) % 10 < 9 ? at(TIERS, hash(i, 8)) : '';
  let nft = hash(i, 9) % 10 < 8 ? String(hash(i, 10) % 500) : '';
  let joined = '';
  if (hash(i, 11) % 10 < 7) {
    const d = new Date(Date.UTC(2021, 0, 1) + (hash(i, 12) % 1800) * 86_400_000);
    joined = d.toISOString().slice(0, 10);
  }
  const bad = i % 50 === 25;
  if (bad) {
    switch (at(BAD_KINDS, Math.floor(i / 50))) {
      case 'bad e-mail':
        email = `${first}.${last}-at-example.com`;
        wallet = '';
        break;
      case 'bad wallet':
        email = '';
        wallet = `0x${hex.slice(0, 30)}`;
        break;
      case 'wallet checksum': {
        email = '';
        const good = toChecksumAddress(`0x${hex}`);
        // Flip the case of one letter: mixed case that is not EIP-55.
        const k = [...good].findIndex((c, n) => n > 1 && /[a-f]/i.test(c));
        const c = good[k] ?? 'a';
        wallet =
          k > 1
            ? `${good.slice(0, k)}${c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()}${good.slice(k + 1)}`
            : '0xZZ';
        break;
      }
      case 'no identity':
        email = '';
        wallet = '';
        break;
      case 'bad status':
        status = 'maybe later';
        break;
      case 'bad number':
        nft = 'lots';
        break;
      case 'bad date':
        joined = '2024-02-30';
        break;
      case 'duplicate': {
        // The same e-mail/wallet as an earlier (good) row of this file.
        const earlier = i - 7;
        email = `${at(FIRST_NAMES, hash(earlier, 1))}.${at(LAST_NAMES, hash(earlier, 2))}.${earlier}@${at(DOMAINS, hash(earlier, 4))}`; // prettier-ignore
        wallet = wallets.get(earlier) ?? '';
        if (hash(earlier, 3) % 100 < 10) email = '';
        if (!email && !wallet) wallet = `0x${'0'.repeat(40)}`;
        break;
      }
    }
  }
  return { line: [email, wallet, first, last, status, tier, nft, joined].map(quoteIfNeeded).join(','), bad };
}

/** Writes the CSV (header + `rows` data rows, CRLF line ends as spreadsheets write them). */
export async function writeImportCsv(file: string, rows: number): Promise<CsvStats> {
  const t0 = performance.now();
  const out = fs.createWriteStream(file);
  const wallets = new Map<number, string>();
  let bad = 0;
  let buffer = `${IMPORT_HEADER.join(',')}\r\n`;
  for (let i = 1; i <= rows; i++) {
    const r = row(i, wallets);
    if (r.bad) bad++;
    wallets.delete(i - 50);
    buffer += `${r.line}\r\n`;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      buffer = '';
    }
  }
  out.end(buffer);
  await new Promise<void>((resolve, reject) => out.on('finish', resolve).on('error', reject));
  return { rows, bytes: fs.statSync(file).size, bad, seconds: (performance.now() - t0) / 1000 };
}

/** The bare table raw COPY goes into: the CSV's columns as text, no index, no constraint. */
export const COPY_TABLE_SQL = `create table if not exists bench_import_copy (${IMPORT_HEADER.map((c) => `${c} text`).join(', ')})`;
