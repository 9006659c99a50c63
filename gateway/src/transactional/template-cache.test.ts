// What a send keeps of its template in memory (transactional/template-cache.ts): sends read no
// template while nothing changes, a change made anywhere (a row written by another connection, heard
// through the database's notification) or through this gateway (its own save) is seen by the next send;
// and concurrent sends sharing one contacts read each get their own answer.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { Template } from '../contracts';
import { queryRows } from '../lib/raw-sql';
import { startGateway, type TestGateway } from '../../test/helpers';
import { tenantId } from '../../test/audience-helpers';
import { generousPlans } from '../../test/campaign-send-helpers';
import { planMessage, writeMessages } from './accept';
import { messagesWaiting } from './carriers';

const MJML = `<mjml><mj-body><mj-section><mj-column>
  <mj-text>Order {{ order.id }}.</mj-text>
</mj-column></mj-section></mj-body></mjml>`;

let gw: TestGateway;
let owner: string;
let acme: string;
let template: string;

const db = () => gw.handle.db;
const send = (to: string, data: Record<string, unknown> = { order: { id: 'C-1' } }) =>
  gw.request<{ message_id?: string; message?: string }>('/v1/transactional/send', {
    method: 'POST',
    token: owner,
    body: { template_id: template, to, data },
  });

/** Runs `write` with the notification trigger of templates off: the change reaches no cache. */
async function unannounced(write: () => Promise<unknown>): Promise<void> {
  await db().execute(sql`alter table templates disable trigger templates_transactional_changed`);
  try {
    await write();
  } finally {
    await db().execute(sql`alter table templates enable trigger templates_transactional_changed`);
  }
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

before(async () => {
  gw = await startGateway({});
  owner = await gw.login('acmeOwner');
  acme = await tenantId(gw, 'Acme DAO');
  await generousPlans(db());
  const created = await gw.request<Template>('/v1/templates', {
    method: 'POST',
    token: owner,
    body: { name: 'Cached receipt', kind: 'transactional' },
  });
  assert.equal(created.status, 201, created.text);
  template = created.body._id;
  const saved = await gw.request(`/v1/templates/${template}`, {
    method: 'PATCH',
    token: owner,
    body: { subject: 'Receipt', mjml: MJML },
  });
  assert.equal(saved.status, 200, saved.text);
});
after(async () => {
  await gw.close();
});

describe('the template a send checks', () => {
  it('is kept in memory: a change nobody announced is not read', async () => {
    assert.equal((await send('kept1@example.org')).status, 202);
    await unannounced(() => db().execute(sql`update templates set kind = 'marketing' where id = ${template}::uuid`));
    // Still the transactional template this process knows: no read of templates per send.
    assert.equal((await send('kept2@example.org')).status, 202);
    // The next change is announced (the trigger): the template is read again, and now refused.
    await db().execute(sql`update templates set kind = 'marketing', updated_at = now() where id = ${template}::uuid`);
    await until(async () => (await send('kept3@example.org')).status === 404, 'the change is heard');
    await db().execute(sql`update templates set kind = 'transactional' where id = ${template}::uuid`);
    await until(async () => (await send('kept4@example.org')).status === 202, 'the change back is heard');
  });

  it("sees the gateway's own save at once: a new merge variable is required by the next send", async () => {
    assert.equal((await send('saved1@example.org')).status, 202);
    const saved = await gw.request(`/v1/templates/${template}`, {
      method: 'PATCH',
      token: owner,
      body: { subject: 'Receipt {{ amount }}', mjml: MJML },
    });
    assert.equal(saved.status, 200, saved.text);
    const missing = await send('saved2@example.org');
    assert.equal(missing.status, 400, missing.text);
    assert.match(missing.body.message ?? '', /Missing merge variables: amount/);
    assert.equal((await send('saved3@example.org', { order: { id: '1' }, amount: '2' })).status, 202);
  });

  it('sees a settings change written by another connection (the notification)', async () => {
    await db().execute(
      sql`insert into contacts (tenant_id, email, status) values (${acme}::uuid, 'gone@example.org', 'unsubscribed')`,
    );
    const data = { order: { id: '1' }, amount: '2' };
    assert.equal((await send('gone@example.org', data)).status, 202);
    await db().execute(
      sql`insert into transactional_settings (template_id, tenant_id, send_to_unsubscribed)
          values (${template}::uuid, ${acme}::uuid, false)`,
    );
    await until(async () => (await send('gone@example.org', data)).status === 400, 'the settings are heard');
  });
});

describe('the contacts looked up by the shared write of concurrent sends', () => {
  it('answers each send for its own address', async () => {
    // The template refuses unsubscribed contacts now (previous test): half of these are.
    const addresses = Array.from({ length: 24 }, (_, i) => `shared${i}@example.org`);
    await db().execute(
      sql`insert into contacts (tenant_id, email, status)
          select ${acme}::uuid, a, case when i % 2 = 0 then 'unsubscribed' else 'subscribed' end
            from unnest(${`{${addresses.join(',')}}`}::text[]) with ordinality as x(a, i)`,
    );
    const data = { order: { id: '1' }, amount: '2' };
    const answers = await Promise.all(addresses.map((a) => send(a, data)));
    // `with ordinality` numbers from 1: odd positions (i % 2 = 1) are subscribed.
    assert.deepEqual(
      answers.map((r) => r.status),
      addresses.map((_, i) => ((i + 1) % 2 === 0 ? 400 : 202)),
    );
    const [row] = await queryRows(
      db(),
      sql`select count(*)::int as n from transactional_messages m join campaign_recipients r on r.id = m.recipient_id
           where r.address like 'shared%' and r.contact_id is not null`,
    );
    assert.equal(row?.n, 12, 'each accepted message names its contact');
    // Refused by the write (its contact looked up there): the Idempotency-Key is given back, unanswered.
    const keyed = (to: string) =>
      gw.request('/v1/transactional/send', {
        method: 'POST',
        token: owner,
        body: { template_id: template, to, data },
        headers: { 'Idempotency-Key': 'refused-then-corrected' },
      });
    assert.equal((await keyed('shared1@example.org')).status, 400);
    assert.equal((await keyed('shared0@example.org')).status, 202, 'the corrected request may use the key');
  });
});

describe('deleting a transactional template', () => {
  it('is refused (409, with the count) while messages of it wait to be sent, and done once they are sent', async () => {
    const made = await gw.request<Template>('/v1/templates', {
      method: 'POST',
      token: owner,
      body: { name: 'Doomed receipt', kind: 'transactional' },
    });
    const id = made.body._id;
    await gw.request(`/v1/templates/${id}`, { method: 'PATCH', token: owner, body: { subject: 'R', mjml: MJML } });
    // Two messages accepted and not sent: written as the send route writes them, no run asked for.
    const plan = (to: string) =>
      planMessage(
        db(),
        gw.app.deps.config,
        acme,
        { template_id: id, to, data: { order: { id: '1' } } },
        async () => null,
      );
    const planned = [await plan('wait1@example.org'), await plan('wait2@example.org')];
    await writeMessages(db(), [{ tenantId: acme, planned, idempotency: null }]);
    const refused = await gw.request<{ message: string }>(`/v1/templates/${id}`, { method: 'DELETE', token: owner });
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.message, messagesWaiting(2));
    assert.match(refused.body.message, /2 transactional messages waiting to be sent/);
    const status = await gw.request<{ status: string }>(`/v1/transactional/messages/${planned[0]?.messageId}`, {
      token: owner,
    });
    assert.equal(status.body.status, 'queued', 'the messages are still there');

    await db().execute(
      sql`update campaign_recipients set status = 'delivered'
           where id in (select recipient_id from transactional_messages where template_id = ${id}::uuid)`,
    );
    const deleted = await gw.request(`/v1/templates/${id}`, { method: 'DELETE', token: owner });
    assert.equal(deleted.status, 200, deleted.text);
    const gone = await gw.request('/v1/transactional/send', {
      method: 'POST',
      token: owner,
      body: { template_id: id, to: 'late@example.org', data: { order: { id: '1' } } },
    });
    assert.equal(gone.status, 404, 'the next send finds no template');
  });
});
