/** How contacts read in the grid and forms: pure helpers, no React. */
import type { Contact, ContactSource, ContactStatus } from '@console/shared/contracts';
import { formatCount, shortenAddress } from '@console/shared/format';

export const STATUS_LABELS: Record<ContactStatus, string> = {
  subscribed: 'Subscribed',
  unsubscribed: 'Unsubscribed',
  bounced: 'Bounced',
  complained: 'Complained',
};

export const SOURCE_LABELS: Record<ContactSource, string> = {
  import: 'Import',
  widget: 'Widget',
  api: 'API',
  manual: 'Manual',
};

/** '0x1234…abcd': the first four and last four hex digits of a wallet address. */
export const shortenWallet = shortenAddress;

/** First and last name, or '' when the contact has neither. */
export function contactName(contact: Pick<Contact, 'first_name' | 'last_name'>): string {
  return `${contact.first_name} ${contact.last_name}`.trim();
}

/** What names a contact in labels and dialogs: e-mail, else wallet, else name, else its id. */
export function contactLabel(contact: Pick<Contact, '_id' | 'email' | 'wallet' | 'first_name' | 'last_name'>): string {
  return contact.email || contact.wallet || contactName(contact) || contact._id;
}

/** '1 contact', '2 contacts', '1,000 contacts'. */
export function pluralContacts(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'contact' : 'contacts'}`;
}

/** The names of a contact's lists (unknown ids are skipped), in membership order. */
export function listNames(ids: readonly string[], names: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const id of ids) {
    const name = names.get(id);
    if (name !== undefined) out.push(name);
  }
  return out;
}

/** The Lists cell: up to two names, then '+N'; '' for none. */
export function listSummary(names: readonly string[]): string {
  if (names.length <= 2) return names.join(', ');
  return `${names.slice(0, 2).join(', ')} +${names.length - 2}`;
}
