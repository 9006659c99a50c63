/**
 * A small demo audience for the Acme DAO tenant (so the console is not empty after `npm start`):
 * 60 contacts with e-mails and/or wallets, 3 lists and 2 custom attributes. Deterministic; seeded
 * once, with the demo tenants (see src/seed.ts).
 */
import { createHash } from 'node:crypto';
import type { AttributeValue, ContactSource, ContactStatus } from '../../contracts';
import type { Database } from '../../db/index';
import { contacts, customAttributes, listMembers, lists } from '../../db/schema';
import { toChecksumAddress } from '../../lib/eip55';

export const DEMO_CONTACTS = 60;
export const DEMO_LISTS = ['Newsletter', 'Early adopters', 'Governance voters'] as const;

const FIRST = ['Ada', 'Ben', 'Chloe', 'Dmitri', 'Eve', 'Femi', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Kemi', 'Luca'];
const LAST = ['Nakamoto', 'Buterin', 'Szabo', 'Finney', 'Back', 'Wood', 'Lubin', 'Hoskinson', 'Zhao', 'Larimer'];
const SOURCES: readonly ContactSource[] = ['import', 'widget', 'manual', 'api'];
const TIERS = ['gold', 'silver', 'bronze'];

export interface DemoContact {
  email: string | null;
  wallet: string | null;
  firstName: string;
  lastName: string;
  status: ContactStatus;
  source: ContactSource;
  tier: string;
  tokenBalance: number;
}

/** The i-th demo contact (1-based): every 7th has only a wallet, every other 5th only an e-mail. */
export function demoContact(i: number): DemoContact {
  const firstName = FIRST[i % FIRST.length] ?? 'Ada';
  const lastName = LAST[(i * 7) % LAST.length] ?? 'Nakamoto';
  const hex = createHash('sha256').update(`acme-demo-${i}`).digest('hex').slice(0, 40);
  const status: ContactStatus = i % 11 === 0 ? 'unsubscribed' : i % 17 === 0 ? 'bounced' : 'subscribed';
  return {
    email: i % 7 === 0 ? null : `${firstName}.${lastName}${i}@example.com`.toLowerCase(),
    wallet: i % 5 === 0 && i % 7 !== 0 ? null : toChecksumAddress(`0x${hex}`),
    firstName,
    lastName,
    status,
    source: SOURCES[i % SOURCES.length] ?? 'manual',
    tier: TIERS[i % TIERS.length] ?? 'bronze',
    tokenBalance: (i * 137) % 5000,
  };
}

/** Inserts the demo audience for a tenant (call inside the seeding transaction). */
export async function seedDemoAudience(db: Database, tenantId: string, now = new Date()): Promise<void> {
  const [tier, balance] = await db
    .insert(customAttributes)
    .values([
      { tenantId, name: 'Tier', key: 'tier', type: 'text', createdAt: new Date(now.getTime() - 2000) },
      {
        tenantId,
        name: 'Token balance',
        key: 'token_balance',
        type: 'number',
        createdAt: new Date(now.getTime() - 1000),
      },
    ])
    .returning({ id: customAttributes.id });
  const listRows = await db
    .insert(lists)
    .values(
      DEMO_LISTS.map((name, k) => ({
        tenantId,
        name,
        description: k === 0 ? 'Monthly community news' : '',
        createdAt: new Date(now.getTime() - (DEMO_LISTS.length - k) * 1000),
        updatedAt: new Date(now.getTime() - (DEMO_LISTS.length - k) * 1000),
      })),
    )
    .returning({ id: lists.id, name: lists.name });
  const listId = (name: (typeof DEMO_LISTS)[number]) => listRows.find((l) => l.name === name)?.id;
  if (!tier || !balance) throw new Error('demo attributes were not stored');

  const people = Array.from({ length: DEMO_CONTACTS }, (_, k) => demoContact(k + 1));
  const rows = await db
    .insert(contacts)
    .values(
      people.map((p, k) => {
        const attributes: Record<string, AttributeValue> = { [tier.id]: p.tier, [balance.id]: p.tokenBalance };
        // An hour apart, oldest first: "newest first" shows the last ones.
        const createdAt = new Date(now.getTime() - (DEMO_CONTACTS - k) * 3_600_000);
        const { tier: _t, tokenBalance: _b, ...fields } = p;
        return { tenantId, ...fields, attributes, createdAt, updatedAt: createdAt };
      }),
    )
    .returning({ id: contacts.id, email: contacts.email, wallet: contacts.wallet, status: contacts.status });

  const members: { listId: string; contactId: string }[] = [];
  rows.forEach((c, k) => {
    const newsletter = listId('Newsletter');
    const early = listId('Early adopters');
    const voters = listId('Governance voters');
    if (newsletter && c.email && c.status === 'subscribed') members.push({ listId: newsletter, contactId: c.id });
    if (early && k < 20) members.push({ listId: early, contactId: c.id });
    if (voters && c.wallet && (k + 1) % 3 === 0) members.push({ listId: voters, contactId: c.id });
  });
  if (members.length > 0) await db.insert(listMembers).values(members);
}
