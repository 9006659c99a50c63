// Renders in the off-loop pool and what a send does with their failures (docs/sending.md, "Building
// messages off the event loop"): a render the pool gave up because it was busy (another tenant's heavy
// templates hold its one thread past the guard) is deferred and retried like a 4xx answer, then
// delivered; a template past the step limit fails at once with the reason, the same for every row.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { Template } from '../../contracts';
import { intOf, queryRows, textOf } from '../../lib/raw-sql';
import { configureOffLoop, offLoop } from '../../lib/off-loop/pool';
import { renderTask, sourcesKey } from '../../templates/off-loop-tasks';
import { TOO_MANY_STEPS } from '../../templates/index';
import { enqueueCampaign } from './queue';
import { RENDER_TOO_SLOW } from './render';
import { startGateway, type TestGateway } from '../../../test/helpers';
import { call, tenantId } from '../../../test/audience-helpers';
import {
  createCampaign,
  createList,
  generousPlans,
  insertContacts,
  recipientStatuses,
  startSmtpPeer,
  TEMPLATE_MJML,
  waitForStatus,
  type SmtpPeer,
} from '../../../test/campaign-send-helpers';

let peer: SmtpPeer;
let gw: TestGateway;
let acme: string;
let owner: string;

const db = () => gw.handle.db;

/** Nested loops in three fields: each loop turn is a step, 1,000,000 of them in the subject alone. */
const LOOP =
  '{% for i in (1..100) %}{% for j in (1..100) %}{% for k in (1..100) %}x{% endfor %}{% endfor %}{% endfor %}';

async function saveTemplate(subject: string, mjml: string, previewText = 'Preview'): Promise<string> {
  const created = await call<Template>(gw, 'POST', '/v1/templates', owner, { name: `T ${Math.random()}` });
  assert.equal(created.status, 201, created.text);
  const saved = await call(gw, 'PATCH', `/v1/templates/${created.body._id}`, owner, {
    subject,
    preview_text: previewText,
    mjml,
  });
  assert.equal(saved.status, 200, saved.text);
  return created.body._id;
}

before(async () => {
  peer = await startSmtpPeer();
  gw = await startGateway({
    SMTP_URL: `smtp://127.0.0.1:${peer.port}`,
    SEND_RETRY_DELAY_SECONDS: '1',
    SEND_MAX_ATTEMPTS: '6',
    SEND_POOL_SIZE: '2',
    JOBS_POLL_SECONDS: '0.5',
    OFF_LOOP_THREADS: '1',
  });
  owner = await gw.login('acmeOwner');
  acme = await tenantId(gw, 'Acme DAO');
  await generousPlans(db());
});
after(async () => {
  await gw?.close();
  await peer?.close();
});

const detailsOf = async (campaignId: string, type: string) =>
  (
    await queryRows(
      db(),
      sql`select detail from campaign_events where campaign_id = ${campaignId}::uuid and type = ${type}`,
    )
  ).map((r) => textOf(r, 'detail'));

describe('renders in the off-loop pool', () => {
  it('a template past the step limit fails every recipient at once, with the reason', async () => {
    const mjml = TEMPLATE_MJML.replace('</mj-text>', `${LOOP}</mj-text>`);
    const templateId = await saveTemplate(`Hi ${LOOP}`, mjml, LOOP);
    const list = await createList(db(), acme, 'Hostile');
    await insertContacts(db(), acme, 4, 'hostile', { listId: list, domain: 'hostile.test' });
    const id = await createCampaign(db(), {
      tenantId: acme,
      templateId,
      subject: `Hi ${LOOP}`,
      audience: { include_lists: [list] },
    });
    await enqueueCampaign(gw.app.deps.jobs, id);
    await waitForStatus(db(), id, 'sent', 60_000);
    assert.deepEqual(await recipientStatuses(db(), id), { failed: 4 });
    const rows = await queryRows(
      db(),
      sql`select attempts, error from campaign_recipients where campaign_id = ${id}::uuid`,
    );
    for (const row of rows) {
      assert.equal(intOf(row, 'attempts'), 1, 'not retried: the same template fails the same way');
      assert.equal(textOf(row, 'error'), `The e-mail could not be rendered: ${TOO_MANY_STEPS}`);
    }
    assert.equal(peer.received.filter((m) => m.to.endsWith('@hostile.test')).length, 0);
  });
  it('a render timeout under a CPU hog is retried and delivered', async () => {
    // One thread, and a guard short enough that a queue of other work passes it.
    configureOffLoop({ ...gw.config.offLoop, threads: 1, guardMs: 400 });
    const templateId = await saveTemplate('Hello {{ contact.first_name }}', TEMPLATE_MJML);
    const list = await createList(db(), acme, 'Hog');
    await insertContacts(db(), acme, 6, 'hog', { listId: list, domain: 'hog.test' });
    // The hog: heavy renders (just under the step limit) that fill the one thread for seconds,
    // handed over with a guard of their own so that they run to their end.
    const heavy = '{% for i in (1..100) %}{% for j in (1..100) %}{{ j }}{% endfor %}{% endfor %}';
    const sources = { subject: 'Hog', previewText: '', html: heavy, text: '' };
    const scope = { community: { name: 'Other' } } as never;
    const run = () => offLoop().run(renderTask, { key: sourcesKey(sources), sources, scope }, { guardMs: 120_000 });
    const first = await run(); // the thread started and the template parsed
    assert.ok(first.ok, 'the hog renders within the limits');
    const started = Date.now();
    await run();
    const each = Date.now() - started;
    const hogs = Array.from({ length: Math.ceil(3_000 / Math.max(each, 1)) }, run);

    const id = await createCampaign(db(), { tenantId: acme, templateId, audience: { include_lists: [list] } });
    await enqueueCampaign(gw.app.deps.jobs, id);
    await Promise.all(hogs);
    await waitForStatus(db(), id, 'sent', 120_000);

    assert.deepEqual(await recipientStatuses(db(), id), { delivered: 6 });
    const deferred = await detailsOf(id, 'deferred');
    assert.ok(deferred.length > 0, 'the renders waiting behind the hog were given up and deferred');
    assert.ok(deferred.every((d) => d === RENDER_TOO_SLOW));
    const received = peer.received.filter((m) => m.to.endsWith('@hog.test'));
    assert.equal(new Set(received.map((m) => m.to)).size, 6);
    assert.equal(received.length, 6, 'each delivered once');
    const [tries] = await queryRows(
      db(),
      sql`select max(attempts) as n from campaign_recipients where campaign_id = ${id}::uuid`,
    );
    assert.ok(intOf(tries ?? {}, 'n') >= 2, 'delivered on a later attempt');
  });
});
