/**
 * The rules for contact field values, in one place for the contacts API, bulk edits and the CSV
 * importer: e-mail and wallet normalisation, status, and custom attribute values by type.
 * Pure functions: each returns the stored value or a reason the value is refused.
 */
import {
  CONTACT_STATUSES,
  WALLET_PATTERN,
  isStorableText,
  UNSTORABLE_TEXT_MESSAGE,
  type AttributeType,
  type AttributeValue,
  type ContactStatus,
} from '../../contracts';
import { toChecksumAddress } from '../../lib/eip55';

export type FieldResult<T> = { ok: true; value: T } | { ok: false; reason: string };

const ok = <T>(value: T): FieldResult<T> => ({ ok: true, value });
const fail = <T>(reason: string): FieldResult<T> => ({ ok: false, reason });

// Practical e-mail shape (what mail servers accept in the wild), not the full RFC 5322 grammar.
const EMAIL_PATTERN = /^[^\s@"(),:;<>[\]\\]+@[^\s@"(),:;<>[\]\\]+\.[^\s@"(),:;<>[\]\\]{2,}$/;

export const MESSAGES = {
  email: 'Enter a valid e-mail address.',
  wallet: 'Enter a wallet address: 0x followed by 40 hexadecimal characters.',
  walletChecksum: 'This wallet address has a wrong checksum (mixed case that is not EIP-55). Check it for typos.',
  identity: 'Enter an e-mail address or a wallet address.',
  status: `Use one of: ${CONTACT_STATUSES.join(', ')}.`,
  number: 'Enter a number.',
  date: 'Enter a date as YYYY-MM-DD.',
  boolean: 'Enter true or false.',
  text: 'Use at most 1000 characters.',
  /** Text PostgreSQL cannot store as given (NUL, other control characters, lone surrogates). */
  unstorable: UNSTORABLE_TEXT_MESSAGE,
} as const;

/** Trimmed and lower-cased; '' and null mean "no e-mail". */
export function normaliseEmail(raw: string | null | undefined): FieldResult<string | null> {
  const value = (raw ?? '').trim().toLowerCase();
  if (!value) return ok(null);
  if (value.length > 254 || !EMAIL_PATTERN.test(value) || !isStorableText(value)) return fail(MESSAGES.email);
  return ok(value);
}

/** EIP-55 checksummed; all-lower or all-upper input is accepted, mixed case must carry a valid checksum. */
export function normaliseWallet(raw: string | null | undefined): FieldResult<string | null> {
  const value = (raw ?? '').trim();
  if (!value) return ok(null);
  if (!WALLET_PATTERN.test(value)) return fail(MESSAGES.wallet);
  const hex = value.slice(2);
  const mixedCase = hex !== hex.toLowerCase() && hex !== hex.toUpperCase();
  const checksummed = toChecksumAddress(value);
  if (mixedCase && checksummed !== value) return fail(MESSAGES.walletChecksum);
  return ok(checksummed);
}

/** A status from a CSV cell or the API; '' means "not given". Common synonyms are understood. */
export function normaliseStatus(raw: string | null | undefined): FieldResult<ContactStatus | null> {
  const value = (raw ?? '').trim().toLowerCase();
  if (!value) return ok(null);
  const synonym: Record<string, ContactStatus> = {
    subscribe: 'subscribed',
    active: 'subscribed',
    yes: 'subscribed',
    unsubscribe: 'unsubscribed',
    no: 'unsubscribed',
    bounce: 'bounced',
    complaint: 'complained',
    spam: 'complained',
  };
  const status = (CONTACT_STATUSES as readonly string[]).includes(value) ? (value as ContactStatus) : synonym[value];
  return status ? ok(status) : fail(MESSAGES.status);
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const TRUE_WORDS = new Set(['true', 'yes', 'y', '1']);
const FALSE_WORDS = new Set(['false', 'no', 'n', '0']);

/**
 * A custom attribute value as stored: text and wallet as strings, number as a finite number, date as
 * 'YYYY-MM-DD', boolean as a boolean. `raw` is a CSV cell (string) or a JSON value from the API;
 * '' and null clear the value (result null).
 */
export function parseAttributeValue(type: AttributeType, raw: unknown): FieldResult<AttributeValue> {
  if (raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '')) return ok(null);
  const text = typeof raw === 'string' ? raw.trim() : raw;
  switch (type) {
    case 'text':
      if (typeof text !== 'string' && typeof text !== 'number' && typeof text !== 'boolean') return fail(MESSAGES.text);
      if (!isStorableText(String(text))) return fail(MESSAGES.unstorable);
      return String(text).length > 1000 ? fail(MESSAGES.text) : ok(String(text));
    case 'number': {
      const n = typeof text === 'number' ? text : typeof text === 'string' ? Number(text.replace(/,/g, '')) : NaN;
      return Number.isFinite(n) ? ok(n) : fail(MESSAGES.number);
    }
    case 'date': {
      const match = typeof text === 'string' ? DATE_PATTERN.exec(text) : null;
      if (!match) return fail(MESSAGES.date);
      const [, y, m, d] = match;
      const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
      const valid =
        date.getUTCFullYear() === Number(y) && date.getUTCMonth() === Number(m) - 1 && date.getUTCDate() === Number(d);
      return valid ? ok(String(text)) : fail(MESSAGES.date);
    }
    case 'boolean': {
      if (typeof text === 'boolean') return ok(text);
      const word = String(text).toLowerCase();
      if (TRUE_WORDS.has(word)) return ok(true);
      if (FALSE_WORDS.has(word)) return ok(false);
      return fail(MESSAGES.boolean);
    }
    case 'wallet': {
      if (typeof text !== 'string') return fail(MESSAGES.wallet);
      return normaliseWallet(text);
    }
  }
}
