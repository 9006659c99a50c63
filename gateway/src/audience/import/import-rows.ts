/**
 * One CSV row of an import: its cells to contact values (the contact field rules of
 * contact-fields.ts), or the sentence that says why it fails. Pure functions.
 */
import {
  isStorableText,
  MAX_IMPORT_ROW_CHARS,
  UNSTORABLE_TEXT_MESSAGE,
  type AttributeValue,
  type ContactStatus,
} from '../../contracts';
import { normaliseEmail, normaliseStatus, normaliseWallet, parseAttributeValue } from '../contacts/contact-fields';
import type { ColumnPlan } from './import-mapping';

/** Longest first or last name (as the contacts API takes them). */
export const MAX_NAME_LENGTH = 100;

/** Why rows fail, as the report shows them. */
export const ROW_MESSAGES = {
  tooLong: `This row is longer than ${MAX_IMPORT_ROW_CHARS.toLocaleString('en-US')} characters.`,
  brokenQuote:
    'This row has a quote (") that is not closed, or text right after a closing quote. ' +
    'Values with quotes, delimiters or line breaks must be in double quotes, with quotes inside them doubled.',
  encoding:
    'This row has text that is not valid UTF-8 (the file mixes encodings). Save the file as "CSV UTF-8" and import it again.',
  identity: 'This row has neither an e-mail address nor a wallet address.',
  tooManyValues: (values: number, columns: number) =>
    `This row has ${values} values but the file has ${columns} columns. Check its quotes and delimiters.`,
  unreadable: 'This row could not be read as CSV. Check its quotes and delimiters.',
  duplicate: (row: number) => `Duplicate of row ${row} in this file.`,
  sameContact: (row: number) => `This row is the same contact as row ${row} in this file.`,
  conflict: 'The e-mail address belongs to one contact and the wallet address to another.',
} as const;

export interface ImportValues {
  email: string | null;
  wallet: string | null;
  firstName: string | null;
  lastName: string | null;
  status: ContactStatus | null;
  /** Non-empty custom attribute values by attribute id; null when there are none. */
  attributes: Record<string, AttributeValue> | null;
}

export type RowResult = { ok: true; values: ImportValues } | { ok: false; reason: string };

/** A row with nothing in it (spreadsheets export trailing rows of empty cells): skipped, not counted. */
export function isBlankRow(cells: readonly string[]): boolean {
  return cells.every((c) => c.trim() === '');
}

function name(raw: string, label: string, problems: string[]): string | null {
  const value = raw.trim();
  if (!value) return null;
  if (!isStorableText(value)) {
    problems.push(`${label}: ${UNSTORABLE_TEXT_MESSAGE}`);
    return null;
  }
  if (value.length > MAX_NAME_LENGTH) {
    problems.push(`${label}: Use at most ${MAX_NAME_LENGTH} characters.`);
    return null;
  }
  return value;
}

/** The contact values of a row's cells, or why the row fails (every field problem, in one sentence each). */
export function readRow(cells: readonly string[], plan: ColumnPlan): RowResult {
  const cell = (column: number | null): string => (column === null ? '' : (cells[column] ?? ''));
  const problems: string[] = [];

  const email = normaliseEmail(cell(plan.email));
  if (!email.ok) problems.push(`E-mail: ${email.reason}`);
  const wallet = normaliseWallet(cell(plan.wallet));
  if (!wallet.ok) problems.push(`Wallet: ${wallet.reason}`);
  const firstName = name(cell(plan.firstName), 'First name', problems);
  const lastName = name(cell(plan.lastName), 'Last name', problems);
  const status = normaliseStatus(cell(plan.status));
  if (!status.ok) problems.push(`Status: ${status.reason}`);

  let attributes: Record<string, AttributeValue> | null = null;
  for (const a of plan.attributes) {
    const parsed = parseAttributeValue(a.type, cell(a.column));
    if (!parsed.ok) problems.push(`${a.name}: ${parsed.reason}`);
    else if (parsed.value !== null) (attributes ??= {})[a.id] = parsed.value;
  }

  if (problems.length > 0) return { ok: false, reason: problems.join(' ') };
  if (!email.ok || !wallet.ok || !status.ok) return { ok: false, reason: ROW_MESSAGES.unreadable };
  if (email.value === null && wallet.value === null) return { ok: false, reason: ROW_MESSAGES.identity };
  return {
    ok: true,
    values: { email: email.value, wallet: wallet.value, firstName, lastName, status: status.value, attributes },
  };
}
