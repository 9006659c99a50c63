// The templates API over HTTP: create (blank, starters), the grid query, saves and versions,
// conflicts, bad input that keeps the last saved version, delete, duplicate, isolation, icons.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import type {
  MergeTagCatalogue,
  Template,
  TemplateConflict,
  TemplatePage,
  TemplateSaved,
  TemplateStarterList,
  TemplateVersionList,
} from '../contracts';
import { TEMPLATE_LIMITS, TEMPLATE_STARTERS, UNSTORABLE_TEXT_MESSAGE } from '../contracts';
import { type ErrorBody, startGateway, type TestGateway } from '../../test/helpers';
import { call, qs, type Method } from '../../test/audience-helpers';
import { users } from '../db/schema';
import { registerTemplateUsage } from './index';

let gw: TestGateway;
let owner: string; // Acme DAO owner
let staff: string; // Acme DAO staff: no `templates` permission
let other: string; // Basic Guild owner

before(async () => {
  gw = await startGateway();
  [owner, staff, other] = await Promise.all([gw.login('acmeOwner'), gw.login('acmeStaff'), gw.login('basicOwner')]);
});
after(() => gw.close());

function mjml(text: string): string {
  return `<mjml>\n  <mj-body>\n    <mj-section>\n      <mj-column>\n        <mj-text>${text}</mj-text>\n      </mj-column>\n    </mj-section>\n  </mj-body>\n</mjml>`;
}

async function create(name: string, extra: Record<string, unknown> = {}, token = owner): Promise<Template> {
  const r = await call<Template>(gw, 'POST', '/v1/templates', token, { name, ...extra });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

async function save(id: string, body: Record<string, unknown>) {
  return call<TemplateSaved & ErrorBody & TemplateConflict>(gw, 'PATCH', `/v1/templates/${id}`, owner, body);
}

async function current(id: string): Promise<Template> {
  const r = await call<Template>(gw, 'GET', `/v1/templates/${id}`, owner);
  assert.equal(r.status, 200, r.text);
  return r.body;
}

describe('creating templates', () => {
  it('lists the four starters', async () => {
    const r = await call<TemplateStarterList>(gw, 'GET', '/v1/templates/starters', owner);
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.records.map((s) => s.key),
      [...TEMPLATE_STARTERS],
    );
  });

  it('creates from each starter: version 1 with its MJML, subject and preview text, no project data', async () => {
    for (const starter of TEMPLATE_STARTERS) {
      const t = await create(`From ${starter}`, { starter });
      assert.equal(t.version, 1);
      assert.equal(t.kind, 'marketing');
      assert.equal(t.project, null);
      assert.match(t.mjml, /\{\{ unsubscribe_url \}\}/);
      assert.ok(t.subject.length > 0 && t.preview_text.length > 0);
      assert.equal(t.updated_by?.name, 'Alice Acme');
      assert.deepEqual(t.used_by, { scheduled_emails: 0, active_automations: 0, names: [] });
    }
  });

  it('creates a blank transactional template without the marketing footer', async () => {
    const t = await create('Receipt', { kind: 'transactional' });
    assert.equal(t.kind, 'transactional');
    assert.doesNotMatch(t.mjml, /unsubscribe_url/);
  });

  it('refuses a blank name and an unknown starter (400 naming the field)', async () => {
    const blank = await call<ErrorBody>(gw, 'POST', '/v1/templates', owner, { name: '   ' });
    assert.equal(blank.status, 400);
    assert.ok(blank.body.errors?.name);
    const starter = await call<ErrorBody>(gw, 'POST', '/v1/templates', owner, { name: 'x', starter: 'birthday' });
    assert.equal(starter.status, 400);
    assert.ok(starter.body.errors?.starter);
  });
});

describe('the grid', () => {
  it('searches names, sorts by name, created and updated, and pages with the spec pagination', async () => {
    const names = ['Grid Alpha', 'grid beta', 'Grid Gamma'];
    const made: Template[] = [];
    for (const name of names) made.push(await create(name));
    // The first one edited last: first by updated_at desc.
    assert.equal((await save(made[0]?._id ?? '', { subject: 'Edited' })).status, 200);

    const byName = await call<TemplatePage>(
      gw,
      'GET',
      `/v1/templates?${qs({ searchString: 'grid', sortField: 'name', sortOrder: 'asc', perPage: 2 })}`,
      owner,
    );
    assert.equal(byName.status, 200, byName.text);
    assert.deepEqual(
      byName.body.records.map((t) => t.name),
      ['Grid Alpha', 'grid beta'],
    );
    assert.deepEqual(byName.body.pagination, { starting: 1, ending: 2, count: 3, previous: null, next: 2 });

    const byUpdated = await call<TemplatePage>(gw, 'GET', `/v1/templates?${qs({ searchString: 'grid' })}`, owner);
    assert.equal(byUpdated.body.records[0]?.name, 'Grid Alpha');
    assert.equal(byUpdated.body.records[0]?.subject, 'Edited');

    const byCreated = await call<TemplatePage>(
      gw,
      'GET',
      `/v1/templates?${qs({ searchString: 'grid', sortField: 'created_at', sortOrder: 'desc' })}`,
      owner,
    );
    assert.deepEqual(
      byCreated.body.records.map((t) => t.name),
      ['Grid Gamma', 'grid beta', 'Grid Alpha'],
    );
    const none = await call<TemplatePage>(gw, 'GET', `/v1/templates?${qs({ searchString: 'no such' })}`, owner);
    assert.deepEqual(none.body.pagination, { starting: 0, ending: 0, count: 0, previous: null, next: null });
  });

  it('filters by kind', async () => {
    await create('Kind filter receipt', { kind: 'transactional' });
    const r = await call<TemplatePage>(
      gw,
      'GET',
      `/v1/templates?${qs({ kind: 'transactional', perPage: 100 })}`,
      owner,
    );
    assert.ok(r.body.records.length > 0);
    assert.ok(r.body.records.every((t) => t.kind === 'transactional'));
  });
});

describe('saves and versions', () => {
  it('makes a version of every content save, not of a rename, and restores an old one as a new version', async () => {
    const t = await create('Versions');
    const v2 = await save(t._id, { mjml: mjml('Second'), project: { pages: [1] }, base_version: 1 });
    assert.equal(v2.status, 200, v2.text);
    assert.equal(v2.body.template.version, 2);
    assert.deepEqual(v2.body.template.project, { pages: [1] });
    const renamed = await save(t._id, { name: 'Versions renamed' });
    assert.equal(renamed.body.template.version, 2);
    assert.equal(renamed.body.template.name, 'Versions renamed');
    const same = await save(t._id, { mjml: mjml('Second'), base_version: 2 });
    assert.equal(same.body.template.version, 2, 'the same content again is no new version');
    assert.equal((await save(t._id, { subject: 'Third', base_version: 2 })).body.template.version, 3);

    const versions = await call<TemplateVersionList>(gw, 'GET', `/v1/templates/${t._id}/versions`, owner);
    assert.deepEqual(
      versions.body.records.map((v) => [v.version, v.subject]),
      [
        [3, 'Third'],
        [2, ''],
        [1, ''],
      ],
    );
    assert.ok(versions.body.records[0]?.created_by?._id);

    const restored = await call<TemplateSaved>(gw, 'POST', `/v1/templates/${t._id}/versions/1/restore`, owner);
    assert.equal(restored.status, 200, restored.text);
    assert.equal(restored.body.template.version, 4);
    assert.equal(restored.body.template.subject, '');
    assert.equal(restored.body.template.project, null);
    assert.equal(restored.body.template.mjml, (await current(t._id)).mjml);
    assert.doesNotMatch(restored.body.template.mjml, /Second/);
  });

  it(`keeps the last ${TEMPLATE_LIMITS.versionsKept} versions`, async () => {
    const t = await create('Many versions');
    for (let i = 2; i <= TEMPLATE_LIMITS.versionsKept + 5; i++) {
      assert.equal((await save(t._id, { subject: `Save ${i}` })).status, 200);
    }
    const versions = await call<TemplateVersionList>(gw, 'GET', `/v1/templates/${t._id}/versions`, owner);
    const numbers = versions.body.records.map((v) => v.version);
    assert.equal(numbers.length, TEMPLATE_LIMITS.versionsKept);
    assert.equal(numbers[0], TEMPLATE_LIMITS.versionsKept + 5);
    assert.equal(numbers.at(-1), 6);
    const gone = await call<ErrorBody>(gw, 'POST', `/v1/templates/${t._id}/versions/5/restore`, owner);
    assert.equal(gone.status, 404);
  });

  it('answers 409 to a save on a stale version and keeps both saves', async () => {
    const t = await create('Two editors');
    const first = await save(t._id, { mjml: mjml('Editor A'), base_version: 1 });
    assert.equal(first.body.template.version, 2);
    const second = await save(t._id, { mjml: mjml('Editor B'), base_version: 1 });
    assert.equal(second.status, 409, second.text);
    assert.equal(second.body.current_version, 2);
    assert.equal(second.body.kept_version, 3);
    assert.ok(second.body.errors?.base_version);
    assert.match(second.body.message, /kept as version 3/);
    const now = await current(t._id);
    assert.equal(now.version, 2);
    assert.match(now.mjml, /Editor A/);
    const versions = await call<TemplateVersionList>(gw, 'GET', `/v1/templates/${t._id}/versions`, owner);
    assert.deepEqual(
      versions.body.records.map((v) => v.version),
      [3, 2, 1],
    );
    const restored = await call<TemplateSaved>(gw, 'POST', `/v1/templates/${t._id}/versions/3/restore`, owner);
    assert.match(restored.body.template.mjml, /Editor B/);
    assert.equal(restored.body.template.version, 4);
  });

  it('returns unknown merge tags as warnings, and saves', async () => {
    const tags = '{{ contact.first_name }} {{ unsubscribe_url }} {{ community.postal_address }} {{ contact.tier }}';
    const body = { subject: 'Hi {{ contact.frist_name }}', mjml: mjml(tags) };
    // Acme DAO has the custom attribute `tier` and a postal address (both seeded).
    const acme = await create('Warnings');
    const r = await save(acme._id, body);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.body.warnings.map((w) => [w.field, w.tag]),
      [['subject', 'contact.frist_name']],
    );
    assert.equal(r.body.template.version, 2);
    // Basic Guild has neither.
    const basic = await create('Warnings', {}, other);
    const theirs = await call<TemplateSaved>(gw, 'PATCH', `/v1/templates/${basic._id}`, other, body);
    assert.equal(theirs.status, 200, theirs.text);
    assert.deepEqual(
      theirs.body.warnings.map((w) => [w.field, w.tag]),
      [
        ['subject', 'contact.frist_name'],
        ['mjml', 'contact.tier'],
        ['mjml', 'community.postal_address'],
      ],
    );
    assert.match(theirs.body.warnings[2]?.message ?? '', /no postal address/);
  });
});

describe('bad input never loses the last saved version', () => {
  async function refused(id: string, body: Record<string, unknown>, field: string, pattern: RegExp): Promise<void> {
    const before = await current(id);
    const r = await save(id, body);
    assert.equal(r.status, 400, r.text);
    // The field itself, or a place inside it (the JSON body check names `project.pages.0.name`).
    const messages = Object.entries(r.body.errors ?? {})
      .filter(([key]) => key === field || key.startsWith(`${field}.`))
      .flatMap(([, list]) => list);
    assert.match(messages.join('\n'), pattern, r.text);
    const after = await current(id);
    assert.equal(after.version, before.version);
    assert.equal(after.mjml, before.mjml);
    assert.equal(after.subject, before.subject);
  }

  it('MJML errors (400 with the line)', async () => {
    const t = await create('Bad MJML');
    await refused(t._id, { mjml: mjml('ok').replace('<mj-text>', '<mj-texte>') }, 'mjml', /^Line 5: Element mj-texte/);
    await refused(t._id, { mjml: 'not MJML' }, 'mjml', /^Line 1: /);
  });

  it('Liquid syntax errors (400 with line and column in the field)', async () => {
    const t = await create('Bad Liquid');
    await refused(t._id, { subject: 'Hi {{ contact.first_name' }, 'subject', /^Line 1, column 4: /);
    await refused(
      t._id,
      { preview_text: '{% if x %}open' },
      'preview_text',
      /^Line 1, column 1: tag \{% if x %\} not closed/,
    );
    await refused(
      t._id,
      { mjml: mjml('{{ contact.first_name | nope }}') },
      'mjml',
      /^Line 5, column \d+: undefined filter: nope/,
    );
  });

  it('MJML over 1 MB (400, not 413)', async () => {
    const t = await create('Big MJML');
    await refused(t._id, { mjml: mjml('é'.repeat(600_000)) }, 'mjml', /limit is 1 MB/);
  });

  it('NUL and other control characters in any text field, the project data included', async () => {
    const t = await create('NUL');
    await refused(t._id, { mjml: mjml('a\u0000b') }, 'mjml', /control characters/);
    await refused(t._id, { subject: 'a\u0007b' }, 'subject', /control characters/);
    await refused(t._id, { project: { pages: [{ name: 'x\u0000' }] } }, 'project', new RegExp(UNSTORABLE_TEXT_MESSAGE));
    await refused(t._id, { project: { ['k\u0000']: 1 } }, 'project', /control characters/);
  });

  it('a rename to nothing', async () => {
    const t = await create('Rename');
    const r = await save(t._id, { name: '' });
    assert.equal(r.status, 400);
    assert.equal((await current(t._id)).name, 'Rename');
  });
});

describe('duplicate and delete', () => {
  it('duplicates the current content as version 1 of a new template', async () => {
    const t = await create('Original', { starter: 'announcement' });
    await save(t._id, { subject: 'Changed subject' });
    const r = await call<Template>(gw, 'POST', `/v1/templates/${t._id}/duplicate`, owner, {});
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.name, 'Copy of Original');
    assert.equal(r.body.version, 1);
    assert.equal(r.body.subject, 'Changed subject');
    assert.equal(r.body.mjml, (await current(t._id)).mjml);
    const named = await call<Template>(gw, 'POST', `/v1/templates/${t._id}/duplicate`, owner, { name: 'My copy' });
    assert.equal(named.body.name, 'My copy');
  });

  it('deletes a template and its versions', async () => {
    const t = await create('To delete');
    const r = await call<{ message: string }>(gw, 'DELETE', `/v1/templates/${t._id}`, owner);
    assert.equal(r.status, 200);
    assert.equal((await call(gw, 'GET', `/v1/templates/${t._id}`, owner)).status, 404);
    assert.equal((await call(gw, 'GET', `/v1/templates/${t._id}/versions`, owner)).status, 404);
  });

  it('refuses to delete a template in use, naming what uses it (409)', async () => {
    const t = await create('In use');
    registerTemplateUsage('test-scheduled', async (_db, _tenant, ids) => {
      const usage = { scheduled_emails: 1, active_automations: 2, names: ['Spring drop'] };
      return new Map(ids.filter((id) => id === t._id).map((id) => [id, usage]));
    });
    try {
      const r = await call<ErrorBody>(gw, 'DELETE', `/v1/templates/${t._id}`, owner);
      assert.equal(r.status, 409, r.text);
      assert.match(r.body.message, /used by 1 scheduled e-mail and 2 active automations \(Spring drop\)/);
      assert.equal((await current(t._id)).used_by.active_automations, 2);
      const page = await call<TemplatePage>(gw, 'GET', `/v1/templates?${qs({ searchString: 'In use' })}`, owner);
      assert.equal(page.body.records[0]?.used_by.scheduled_emails, 1);
    } finally {
      registerTemplateUsage('test-scheduled', async () => new Map());
    }
    assert.equal((await call(gw, 'DELETE', `/v1/templates/${t._id}`, owner)).status, 200);
  });
});

describe('isolation and permission', () => {
  it("answers 404 for another tenant's template on every route", async () => {
    const t = await create('Acme only');
    const routes: [Parameters<typeof call>[1], string, unknown?][] = [
      ['GET', `/v1/templates/${t._id}`],
      ['PATCH', `/v1/templates/${t._id}`, { name: 'Taken' }],
      ['DELETE', `/v1/templates/${t._id}`],
      ['POST', `/v1/templates/${t._id}/duplicate`, {}],
      ['GET', `/v1/templates/${t._id}/versions`],
      ['POST', `/v1/templates/${t._id}/versions/1/restore`],
      ['POST', `/v1/templates/${t._id}/preview`, {}],
      ['GET', `/v1/templates/${t._id}/html`],
      ['POST', `/v1/templates/${t._id}/test`, { recipients: ['a@example.test'] }],
    ];
    for (const [method, path, body] of routes) {
      const r = await call(gw, method, path, other, body);
      assert.equal(r.status, 404, `${method} ${path}: ${r.text}`);
    }
    const list = await call<TemplatePage>(gw, 'GET', `/v1/templates?${qs({ perPage: 1000 })}`, other);
    assert.ok(!list.body.records.some((r) => r._id === t._id));
    const after = await current(t._id);
    assert.equal(after.name, 'Acme only');
    assert.equal(after.version, 1);
  });

  it('answers 404 for a malformed id', async () => {
    assert.equal((await call(gw, 'GET', '/v1/templates/not-a-uuid', owner)).status, 404);
  });

  it('answers 403 without the templates permission, and 401 without a session', async () => {
    for (const path of ['/v1/templates', '/v1/templates/starters']) {
      assert.equal((await call(gw, 'GET', path, staff)).status, 403, path);
      assert.equal((await gw.get(path)).status, 401, path);
    }
    for (const path of ['/v1/templates/choices', '/v1/templates/merge-tags']) {
      assert.equal((await gw.get(path)).status, 401, path);
    }
    assert.equal((await call(gw, 'POST', '/v1/templates', staff, { name: 'x' })).status, 403);
  });
});

describe('choosing a template for an e-mail (view_engagement_emails without templates)', () => {
  it('lists marketing templates only, reads thumbnails and merge tags, and edits nothing', async () => {
    const marketing = await create('Choosable newsletter', { starter: 'newsletter' });
    const receipt = await create('Choosable receipt', { kind: 'transactional' });
    const choices = await call<TemplatePage>(
      gw,
      'GET',
      `/v1/templates/choices?${qs({ perPage: 1000, searchString: 'Choosable' })}`,
      staff,
    );
    assert.equal(choices.status, 200, choices.text);
    assert.deepEqual(
      choices.body.records.map((t) => t._id),
      [marketing._id],
    );
    assert.ok(!choices.body.records.some((t) => t._id === receipt._id), 'no transactional template');
    assert.equal((await call(gw, 'GET', `/v1/templates/${marketing._id}/html`, staff)).status, 200);
    assert.equal((await call(gw, 'GET', '/v1/templates/merge-tags', staff)).status, 200);

    // Reading for choosing is not editing: the designer's reads and every write stay `templates`.
    const id = marketing._id;
    const refused: [Method, string, unknown?][] = [
      ['GET', '/v1/templates'],
      ['GET', `/v1/templates/${id}`],
      ['GET', `/v1/templates/${id}/versions`],
      ['POST', '/v1/templates', { name: 'x' }],
      ['PATCH', `/v1/templates/${id}`, { name: 'Renamed by staff' }],
      ['POST', `/v1/templates/${id}/duplicate`, {}],
      ['POST', `/v1/templates/${id}/preview`, { contact_id: null }],
      ['POST', `/v1/templates/${id}/test`, { recipients: ['a@example.com'], contact_id: null }],
      ['DELETE', `/v1/templates/${id}`],
    ];
    for (const [method, path, body] of refused) {
      assert.equal((await call(gw, method, path, staff, body)).status, 403, `${method} ${path}`);
    }
    assert.equal((await current(id)).name, 'Choosable newsletter');
  });

  it('is refused without the e-mails permission too', async () => {
    await gw.handle.db
      .update(users)
      .set({ permissions: ['manage_contacts'] })
      .where(eq(users.email, 'staff@acme.test'));
    gw.sessionsChanged();
    try {
      const [t] = (await call<TemplatePage>(gw, 'GET', '/v1/templates', owner)).body.records;
      assert.ok(t);
      for (const path of ['/v1/templates/choices', '/v1/templates/merge-tags', `/v1/templates/${t._id}/html`]) {
        assert.equal((await call(gw, 'GET', path, staff)).status, 403, path);
      }
    } finally {
      await gw.handle.db
        .update(users)
        .set({ permissions: ['manage_contacts', 'view_engagement_emails'] })
        .where(eq(users.email, 'staff@acme.test'));
      gw.sessionsChanged();
    }
  });
});

describe('merge tags, compiled HTML and icons', () => {
  it("lists contact fields, the tenant's attributes, community fields and links", async () => {
    const attribute = await call(gw, 'POST', '/v1/custom-attributes', owner, {
      name: 'Guild role',
      key: 'guild_role',
      type: 'text',
    });
    assert.equal(attribute.status, 201, attribute.text);
    const r = await call<MergeTagCatalogue>(gw, 'GET', '/v1/templates/merge-tags', owner);
    assert.equal(r.status, 200);
    const tags = Object.fromEntries(r.body.groups.map((g) => [g.label, g.tags.map((t) => t.tag)]));
    assert.deepEqual(tags, {
      Contact: ['contact.first_name', 'contact.last_name', 'contact.email', 'contact.wallet'],
      // The demo audience's attributes (tier, token_balance), then the new one.
      'Custom attributes': ['contact.tier', 'contact.token_balance', 'contact.guild_role'],
      Community: ['community.name', 'community.url', 'community.postal_address'],
      Links: ['unsubscribe_url', 'view_in_browser_url'],
    });
    const name = r.body.groups.find((g) => g.label === 'Community')?.tags[0];
    assert.equal(name?.example, 'Acme DAO');
    // Another tenant does not see Acme's attributes.
    const theirs = await call<MergeTagCatalogue>(gw, 'GET', '/v1/templates/merge-tags', other);
    const theirTags = theirs.body.groups.flatMap((g) => g.tags.map((t) => t.tag));
    assert.ok(!theirTags.includes('contact.guild_role'));
  });

  it('serves the current version merged for sample values (thumbnails), icons from the gateway', async () => {
    const t = await create('Compiled', { starter: 'newsletter' });
    const r = await call<{ version: number; html: string }>(gw, 'GET', `/v1/templates/${t._id}/html`, owner);
    assert.equal(r.status, 200);
    assert.equal(r.body.version, 1);
    assert.doesNotMatch(r.body.html, /\{\{|\{%/, 'no merge tag shows raw');
    assert.match(r.body.html, /Acme DAO/);
    const icon = /src="([^"]*\/static\/social\/discord\.png)"/.exec(r.body.html)?.[1] ?? '';
    assert.ok(icon.startsWith(gw.config.onboarding.publicUrl), icon);
    const png = await fetch(`${gw.url}/static/social/discord.png`);
    assert.equal(png.status, 200);
    assert.equal(png.headers.get('content-type'), 'image/png');
    assert.deepEqual([...new Uint8Array(await png.arrayBuffer()).slice(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    assert.equal((await fetch(`${gw.url}/static/social/nope.png`)).status, 404);
    assert.equal((await fetch(`${gw.url}/static/social/twitter-x.png`)).status, 200);
  });
});
