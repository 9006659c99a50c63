// Server previews ("preview as" a contact) and test sends received by a real SMTP peer.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import type { Contact, CustomAttribute, Template, TemplatePreview, TemplateTestSent } from '../contracts';
import { tenants } from '../db/schema';
import { type ErrorBody, startGateway, type TestGateway } from '../../test/helpers';
import { call, tenantId } from '../../test/audience-helpers';

interface Received {
  to: string[];
  raw: Buffer;
}

let smtp: SMTPServer;
const received: Received[] = [];
let gw: TestGateway;
let owner: string;
let other: string;
let template: Template;
let ada: Contact;

const BODY = `<mjml>
  <mj-body>
    <mj-section>
      <mj-column>
        <mj-text>Hi {{ contact.first_name | default: "friend" }} ({{ contact.guild_rank }})</mj-text>
        <mj-text>{% if contact.wallet != blank %}Wallet {{ contact.wallet }}{% else %}No wallet yet{% endif %}</mj-text>
        <mj-button href="{{ community.url }}">Open {{ community.name }}</mj-button>
        <mj-text>{{ community.postal_address }} <a href="{{ unsubscribe_url }}">Unsubscribe</a></mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;

before(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks) });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  gw = await startGateway({ SMTP_URL: `smtp://127.0.0.1:${port}` });
  [owner, other] = await Promise.all([gw.login('acmeOwner'), gw.login('basicOwner')]);
  await gw.handle.db
    .update(tenants)
    .set({ postalAddress: '1 Chain Street, 10115 Berlin' })
    .where(eq(tenants.id, await tenantId(gw, 'Acme DAO')));
  const attribute = await call<CustomAttribute>(gw, 'POST', '/v1/custom-attributes', owner, {
    name: 'Guild rank',
    key: 'guild_rank',
    type: 'text',
  });
  assert.equal(attribute.status, 201, attribute.text);
  const contact = await call<Contact>(gw, 'POST', '/v1/contacts', owner, {
    email: 'ada@example.test',
    first_name: 'Ada <3',
    wallet: '0x52908400098527886E0F7030069857D2E4169EE7',
    attributes: { guild_rank: 'Elder' },
  });
  assert.equal(contact.status, 201, contact.text);
  ada = contact.body;
  const created = await call<Template>(gw, 'POST', '/v1/templates', owner, { name: 'Preview me' });
  assert.equal(created.status, 201, created.text);
  const saved = await call<{ template: Template }>(gw, 'PATCH', `/v1/templates/${created.body._id}`, owner, {
    subject: 'Hello {{ contact.first_name | default: "friend" }}',
    preview_text: 'News for {{ contact.guild_rank }}s',
    mjml: BODY,
  });
  assert.equal(saved.status, 200, saved.text);
  template = saved.body.template;
});

after(async () => {
  await gw.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('preview', () => {
  it('renders as a chosen contact, merge tags resolved (fields, attributes, community, links)', async () => {
    const r = await call<TemplatePreview>(gw, 'POST', `/v1/templates/${template._id}/preview`, owner, {
      contact_id: ada._id,
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.subject, 'Hello Ada <3');
    assert.equal(r.body.preview_text, 'News for Elders');
    assert.match(r.body.html, /Hi Ada &lt;3 \(Elder\)/);
    assert.match(r.body.html, /Wallet 0x52908400098527886E0F7030069857D2E4169EE7/);
    assert.match(r.body.html, /1 Chain Street, 10115 Berlin/);
    assert.match(r.body.html, /Open Acme DAO/);
    assert.match(r.body.html, new RegExp(`href="${gw.config.onboarding.publicUrl}/c/[a-z0-9-]+"`));
    assert.match(r.body.html, /News for Elders/, 'the preview text is in the HTML');
    assert.match(r.body.text, /Hi Ada <3 \(Elder\)/);
    assert.doesNotMatch(r.body.html + r.body.text, /\{\{|\{%/);
    assert.deepEqual(r.body.warnings, []);
  });

  it('renders with sample values without a contact', async () => {
    const r = await call<TemplatePreview>(gw, 'POST', `/v1/templates/${template._id}/preview`, owner, {});
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.subject, 'Hello Ada');
    assert.match(r.body.html, /\(Sample text\)/);
  });

  it('renders a listed version', async () => {
    const r = await call<TemplatePreview>(gw, 'POST', `/v1/templates/${template._id}/preview`, owner, { version: 1 });
    assert.equal(r.status, 200, r.text);
    assert.match(r.body.html, /Start writing here/);
  });

  it("refuses another tenant's contact (404)", async () => {
    const theirs = await call<Contact>(gw, 'POST', '/v1/contacts', other, { email: 'guild@example.test' });
    assert.equal(theirs.status, 201, theirs.text);
    const r = await call<ErrorBody>(gw, 'POST', `/v1/templates/${template._id}/preview`, owner, {
      contact_id: theirs.body._id,
    });
    assert.equal(r.status, 404);
    assert.equal(r.body.message, 'Contact not found.');
  });

  it('a render past its limits is a 400, not a 500', async () => {
    const t = await call<Template>(gw, 'POST', '/v1/templates', owner, { name: 'Loops', kind: 'transactional' });
    const mjml = BODY.replace('Hi {{', '{% for i in (1..50000000) %}.{% endfor %} Hi {{');
    assert.equal((await call(gw, 'PATCH', `/v1/templates/${t.body._id}`, owner, { mjml })).status, 200);
    const r = await call<ErrorBody>(gw, 'POST', `/v1/templates/${t.body._id}/preview`, owner, {});
    assert.equal(r.status, 400, r.text);
    assert.match(r.body.errors?.mjml?.[0] ?? '', /could not be filled in: memory alloc limit exceeded/);
  });
});

describe('test send', () => {
  it('sends each address one e-mail through SMTP, with an HTML and a text part, merged for the contact', async () => {
    received.length = 0;
    const r = await call<TemplateTestSent>(gw, 'POST', `/v1/templates/${template._id}/test`, owner, {
      recipients: ['one@example.test', 'Two@Example.test', 'two@example.test'],
      contact_id: ada._id,
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.sent, 2);
    assert.equal(received.length, 2);
    assert.deepEqual(received.map((m) => m.to).sort(), [['one@example.test'], ['two@example.test']]);
    for (const m of received) {
      const parsed = await PostalMime.parse(m.raw);
      assert.equal(parsed.subject, '[Test] Hello Ada <3');
      assert.match(parsed.html ?? '', /Hi Ada &lt;3 \(Elder\)/);
      assert.match(parsed.html ?? '', /1 Chain Street, 10115 Berlin/);
      assert.match(parsed.text ?? '', /Hi Ada <3 \(Elder\)/);
      assert.match(parsed.text ?? '', /Unsubscribe \[http[^\]]+\/email\/unsubscribe\/sample\]/);
      assert.doesNotMatch((parsed.html ?? '') + (parsed.text ?? ''), /\{\{|\{%/);
    }
  });

  it('refuses more than five addresses and bad addresses, sending nothing', async () => {
    received.length = 0;
    const six = Array.from({ length: 6 }, (_, i) => `r${i}@example.test`);
    const tooMany = await call<ErrorBody>(gw, 'POST', `/v1/templates/${template._id}/test`, owner, { recipients: six });
    assert.equal(tooMany.status, 400);
    assert.ok(tooMany.body.errors?.recipients);
    const bad = await call<ErrorBody>(gw, 'POST', `/v1/templates/${template._id}/test`, owner, {
      recipients: ['not an address'],
    });
    assert.equal(bad.status, 400);
    assert.equal((await call(gw, 'POST', `/v1/templates/${template._id}/test`, owner, { recipients: [] })).status, 400);
    assert.equal(received.length, 0);
  });
});
