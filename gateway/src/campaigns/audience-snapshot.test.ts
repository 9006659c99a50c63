// The compact audience snapshot (campaigns/audience.ts) on the database the suite runs on: a walk cut
// off and walked again takes every contact once; parts become recipient rows exactly once, a part at a
// time, or claimed at once by a sender (embedded PGlite); a contact deleted after the snapshot keeps its
// row without the contact; a cancelled campaign's parts not yet taken become 'skipped' rows.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { intOf, queryRows } from '../lib/raw-sql';
import { AUDIENCE_PART, expandPart, partsWaiting, recipientCount, takeAudience } from './audience';
import { claim, claimFromParts, skipRemaining } from './sender/claim';
import { endLease, openLease } from './sender/lease';
import { startGateway, type TestGateway } from '../../test/helpers';
import { tenantId } from '../../test/audience-helpers';
import { createCampaign, createList, insertContacts, recipientStatuses } from '../../test/campaign-send-helpers';

const N = 2_500;
let gw: TestGateway;
let acme: string;
let listId: string;

const db = () => gw.handle.db;
const selection = () => ({ include_lists: [listId], include_segments: [], exclude_lists: [], exclude_segments: [] });

async function newCampaign(): Promise<string> {
  return createCampaign(db(), { tenantId: acme, templateId: null as unknown as string, audience: selection() });
}

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await queryRows(db(), query);
  return row ? intOf(row, 'n') : 0;
}

before(async () => {
  gw = await startGateway();
  acme = await tenantId(gw, 'Acme DAO');
  listId = await createList(db(), acme, 'Snapshot readers');
  await insertContacts(db(), acme, N, 'snap', { listId, domain: 'snapshot.test' });
});

after(async () => {
  await gw.close();
});

describe('the audience snapshot', () => {
  it('walked in slices, cut off and walked again, takes every contact once', async () => {
    const campaignId = await newCampaign();
    const stop = new AbortController();
    const first = await takeAudience(db(), campaignId, acme, selection(), null, {
      signal: stop.signal,
      slice: 1_000,
      afterSlice: () => stop.abort(),
    });
    assert.equal(first, null, 'the cut-off walk says it did not finish');
    // One slice of 1,000 contacts read (the tenant's other contacts among them) before the cut.
    const taken = await recipientCount(db(), campaignId);
    assert.ok(taken > 0 && taken <= 1_000, `${taken} taken by the first slice`);

    const total = await takeAudience(db(), campaignId, acme, selection(), null, { slice: 700 });
    assert.equal(total, N);
    const distinct = await count(
      sql`select count(distinct u)::int as n from campaign_audience a, unnest(a.contact_ids) u
           where a.campaign_id = ${campaignId}::uuid`,
    );
    assert.equal(distinct, N, 'no contact taken twice');
    const oversized = await count(
      sql`select count(*)::int as n from campaign_audience
           where campaign_id = ${campaignId}::uuid and cardinality(contact_ids) > ${AUDIENCE_PART}`,
    );
    assert.equal(oversized, 0);
    assert.equal(
      await count(sql`select count(*)::int as n from campaign_recipients where campaign_id = ${campaignId}::uuid`),
      0,
      'no recipient row before the sender reaches a part',
    );
  });

  it('turns one part at a time into queued rows, each part once', async () => {
    const campaignId = await newCampaign();
    assert.equal(await takeAudience(db(), campaignId, acme, selection(), null), N);
    const parts = await partsWaiting(db(), campaignId);
    assert.equal(parts, Math.ceil(N / AUDIENCE_PART));

    // A contact deleted after the snapshot: its row keeps the address, without the contact.
    const [gone] = await queryRows(
      db(),
      sql`delete from contacts where id = (select contact_ids[1] from campaign_audience
                                            where campaign_id = ${campaignId}::uuid order by part desc limit 1)
          returning lower(email) as address`,
    );
    assert.ok(gone);

    assert.equal(await expandPart(db(), campaignId, acme, 'queued'), true);
    const afterOne = await count(
      sql`select count(*)::int as n from campaign_recipients where campaign_id = ${campaignId}::uuid and status = 'queued'`,
    );
    assert.equal(afterOne, AUDIENCE_PART);
    // The next part in slices (the sender on PGlite): each recipient once, the part waits until its last.
    const queued = async () =>
      count(sql`select count(*)::int as n from campaign_recipients where campaign_id = ${campaignId}::uuid`);
    const waiting = await partsWaiting(db(), campaignId);
    for (const taken of [300, 600, 900]) {
      assert.equal(await expandPart(db(), campaignId, acme, 'queued', 300), true);
      assert.equal(await queued(), AUDIENCE_PART + taken);
      assert.equal(await partsWaiting(db(), campaignId), waiting, 'the part is not taken yet');
    }
    assert.equal(await expandPart(db(), campaignId, acme, 'queued', 300), true);
    assert.equal(await queued(), 2 * AUDIENCE_PART);
    assert.equal(await partsWaiting(db(), campaignId), waiting - 1, 'its last slice takes the part');
    while (await expandPart(db(), campaignId, acme, 'queued'));
    assert.equal(await partsWaiting(db(), campaignId), 0);
    assert.deepEqual(await recipientStatuses(db(), campaignId), { queued: N });
    // One slice made three parts: each row has its own contact's address (the parts' arrays align).
    assert.equal(
      await count(
        sql`select count(*)::int as n from campaign_recipients r join contacts c on c.id = r.contact_id
             where r.campaign_id = ${campaignId}::uuid and r.address <> lower(c.email)`,
      ),
      0,
    );
    const [row] = await queryRows(
      db(),
      sql`select contact_id from campaign_recipients where campaign_id = ${campaignId}::uuid and address = ${gone.address}`,
    );
    assert.ok(row, 'the deleted contact is still a recipient');
    assert.equal(row.contact_id, null);
    assert.equal(await expandPart(db(), campaignId, acme, 'queued'), false);
  });

  it('claims the expanded rows under a lease: each recipient once, claimed, with its contact', async () => {
    const campaignId = await newCampaign();
    // N - 1: the first test deleted a contact.
    assert.equal(await takeAudience(db(), campaignId, acme, selection(), null), N - 1);
    const epoch = await openLease(db(), campaignId, 'worker-a', { leaseSeconds: 30 });
    const who = { epoch, worker: 'worker-a' };
    while (await expandPart(db(), campaignId, acme, 'queued'));
    const first = await claim(db(), who, campaignId, 64, 'queued');
    assert.equal(first.length, 64);
    assert.deepEqual(
      first.map((r) => r.id),
      [...first.map((r) => r.id)].sort((a, b) => a - b),
      'in id order',
    );
    for (const row of first) {
      assert.equal(row.attempts, 1);
      assert.equal(row.channel, 'email');
      assert.equal(row.contact?.status, 'subscribed');
      assert.equal(row.contact?.email?.toLowerCase(), row.address);
    }
    const [held] = await queryRows(
      db(),
      sql`select count(*) filter (where status = 'sending' and claimed_by = 'worker-a' and claim_epoch = ${epoch}
                                    and attempts = 1)::int as claimed
            from campaign_recipients where campaign_id = ${campaignId}::uuid`,
    );
    assert.equal(intOf(held!, 'claimed'), 64);
    let taken = first.length;
    for (;;) {
      const next = await claim(db(), who, campaignId, 300, 'queued');
      if (next.length === 0) break;
      taken += next.length;
    }
    assert.equal(taken, N - 1, 'every recipient once');
    assert.deepEqual(await recipientStatuses(db(), campaignId), { sending: N - 1 });
    // The lease ends: every row claimed and not handed over goes back to the queue, its attempt undone.
    await endLease(db(), epoch);
    assert.deepEqual(await recipientStatuses(db(), campaignId), { queued: N - 1 });
    assert.deepEqual(await claim(db(), who, campaignId, 64, 'queued'), [], 'an ended lease claims nothing');
  });

  it('claims straight from the parts under a lease: each recipient once, claimed, and nothing once the lease ended', async () => {
    const campaignId = await newCampaign();
    assert.equal(await takeAudience(db(), campaignId, acme, selection(), null), N - 1);
    const epoch = await openLease(db(), campaignId, 'worker-b', { leaseSeconds: 30 });
    const who = { epoch, worker: 'worker-b' };
    const campaign = { id: campaignId, tenantId: acme };
    const first = await claimFromParts(db(), who, campaign, 64);
    assert.equal(first.part, true);
    assert.equal(first.rows.length, 64);
    for (const row of first.rows) {
      assert.equal(row.attempts, 1);
      assert.equal(row.contact?.email?.toLowerCase(), row.address);
    }
    let taken = first.rows.length;
    for (;;) {
      const next = await claimFromParts(db(), who, campaign, 300);
      if (!next.part) break;
      assert.ok(next.rows.length <= 300);
      taken += next.rows.length;
    }
    assert.equal(taken, N - 1, 'every recipient once');
    assert.equal(await partsWaiting(db(), campaignId), 0);
    const [held] = await queryRows(
      db(),
      sql`select count(*) filter (where status = 'sending' and claim_epoch = ${epoch} and claimed_by = 'worker-b')::int as n
            from campaign_recipients where campaign_id = ${campaignId}::uuid`,
    );
    assert.equal(intOf(held!, 'n'), N - 1);
    await endLease(db(), epoch);
    assert.deepEqual(await recipientStatuses(db(), campaignId), { queued: N - 1 });

    // A lease no longer held takes no part.
    const other = await newCampaign();
    assert.equal(await takeAudience(db(), other, acme, selection(), null), N - 1);
    const gone = await openLease(db(), other, 'worker-c', { leaseSeconds: 30 });
    await endLease(db(), gone);
    const none = await claimFromParts(db(), { epoch: gone, worker: 'worker-c' }, { id: other, tenantId: acme }, 64);
    assert.deepEqual(none, { part: false, rows: [] });
    assert.ok((await partsWaiting(db(), other)) > 0, 'the parts wait for a run that holds its lease');
  });

  it('skips the parts of a cancelled campaign that were not taken yet', async () => {
    const campaignId = await newCampaign();
    assert.equal(await takeAudience(db(), campaignId, acme, selection(), null), N - 1);
    assert.equal(await expandPart(db(), campaignId, acme, 'queued'), true);
    await skipRemaining(db(), { id: campaignId, tenantId: acme });
    assert.deepEqual(await recipientStatuses(db(), campaignId), { skipped: N - 1 });
    assert.equal(await partsWaiting(db(), campaignId), 0);
  });
});
