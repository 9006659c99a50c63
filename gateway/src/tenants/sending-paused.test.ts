// A platform admin's "sending paused" (tenant settings, spec section 7): the tenant's campaigns send
// nothing while it is set, wait, and finish once it is cleared.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Template } from '../contracts';
import { textOf } from '../lib/raw-sql';
import { enqueueCampaign } from '../campaigns/sender/queue';
import { startGateway, type TestGateway } from '../../test/helpers';
import { call, tenantId } from '../../test/audience-helpers';
import {
  campaignRow,
  createCampaign,
  createList,
  generousPlans,
  insertContacts,
  startSmtpPeer,
  TEMPLATE_MJML,
  waitForStatus,
  type SmtpPeer,
} from '../../test/campaign-send-helpers';

let peer: SmtpPeer;
let gw: TestGateway;
before(async () => {
  peer = await startSmtpPeer();
  gw = await startGateway({ SMTP_URL: `smtp://127.0.0.1:${peer.port}`, JOBS_POLL_SECONDS: '0.5' });
});
after(async () => {
  await gw.close();
  await peer.close();
});

it('holds a send while the tenant is paused and finishes it once unpaused', async () => {
  const db = gw.handle.db;
  const admin = await gw.login('admin');
  const owner = await gw.login('acmeOwner');
  const acme = await tenantId(gw, 'Acme DAO');
  await generousPlans(db);
  const template = await call<Template>(gw, 'POST', '/v1/templates', owner, { name: 'Held body' });
  assert.equal(template.status, 201, template.text);
  const saved = await call(gw, 'PATCH', `/v1/templates/${template.body._id}`, owner, {
    subject: 'Held',
    mjml: TEMPLATE_MJML,
  });
  assert.equal(saved.status, 200, saved.text);
  const listId = await createList(db, acme, 'Held readers');
  await insertContacts(db, acme, 12, 'held', { listId });

  const pause = await call(gw, 'PATCH', `/v1/tenants/${acme}/settings`, admin, { sending_paused: true });
  assert.equal(pause.status, 200, pause.text);
  const id = await createCampaign(db, {
    tenantId: acme,
    templateId: template.body._id,
    audience: { include_lists: [listId] },
  });
  await enqueueCampaign(gw.app.deps.jobs, id);
  await new Promise((r) => setTimeout(r, 3000));
  assert.equal(peer.received.length, 0, 'nothing sent while paused');
  assert.equal(textOf(await campaignRow(db, id), 'status'), 'sending', 'the campaign waits');

  const resume = await call(gw, 'PATCH', `/v1/tenants/${acme}/settings`, admin, { sending_paused: false });
  assert.equal(resume.status, 200, resume.text);
  await waitForStatus(db, id, 'sent', 60_000);
  assert.equal(peer.received.filter((m) => m.to.endsWith('@send.test')).length, 12);
});
