// Automations end to end in one gateway, the runner driven by hand with a controllable clock: waits,
// branches, re-entry rules, versioning (a journey started on v1 finishes on v1), validation refusing
// what cannot run, pause and resume, list joins through the outbox, a contract event whose e-mail
// carries the event's value at a real SMTP peer, the API trigger with a sending key, the grid's
// counters and the log, tenant isolation and permissions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type {
  Automation,
  AutomationDetail,
  AutomationInvalid,
  AutomationPage,
  AutomationTriggered,
  JourneyEdge,
  JourneyGraph,
  JourneyNode,
  JourneyPage,
  Reentry,
  Template,
} from '../contracts';
import { queryRows } from '../lib/raw-sql';
import { startGateway, type TestGateway } from '../../test/helpers';
import { call, tenantId } from '../../test/audience-helpers';
import {
  createList,
  generousPlans,
  parseMail,
  startSmtpPeer,
  waitUntil,
  type SmtpPeer,
} from '../../test/campaign-send-helpers';
import { createApiKey } from '../../test/api-key-fixtures';
import { subscribe } from '../onboarding/public/signup-subscribe';
import { advanceOnce, claimDue, enterContacts } from './journeys';
import { runUntilIdle } from './runner';

let peer: SmtpPeer;
let gw: TestGateway;
let owner: string;
let staff: string;
let labOwner: string;
let acme: string;
let template: string;

const db = () => gw.handle.db;
const at = { x: 0, y: 0 };
const T0 = new Date('2026-12-01T10:00:00Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);
const run = (now: Date) => runUntilIdle(gw.app.deps, now);

const trigger = (data: Extract<JourneyNode, { type: 'trigger' }>['data'] = { type: 'api_call' }): JourneyNode => ({
  id: 'start',
  type: 'trigger',
  position: at,
  data,
});
const wait = (id: string, seconds: number): JourneyNode => ({
  id,
  type: 'wait',
  position: at,
  data: { wait: 'duration', seconds },
});
const send = (id: string, template_id = template): JourneyNode => ({
  id,
  type: 'send_email',
  position: at,
  data: { template_id },
});
const exit = (id = 'end'): JourneyNode => ({ id, type: 'exit', position: at, data: {} });
const edge = (source: string, target: string, sourceHandle?: 'yes' | 'no'): JourneyEdge => ({
  id: `${source}>${target}`,
  source,
  target,
  ...(sourceHandle ? { sourceHandle } : {}),
});
/** A straight line of nodes. */
const line = (...nodes: JourneyNode[]): JourneyGraph => ({
  nodes,
  edges: nodes.slice(1).map((n, i) => edge(nodes[i]!.id, n.id)),
});

async function create(graph: JourneyGraph, reentry: Reentry = { mode: 'once' }, who = owner): Promise<string> {
  const r = await call<AutomationDetail>(gw, 'POST', '/v1/automations', who, {
    name: `A ${Math.random()}`,
    graph,
    reentry,
  });
  assert.equal(r.status, 201, r.text);
  return r.body._id;
}
async function activate(id: string, who = owner) {
  const r = await call<AutomationDetail>(gw, 'POST', `/v1/automations/${id}/activate`, who);
  assert.equal(r.status, 200, r.text);
  return r.body;
}
async function contact(email: string, extra: { wallet?: string; attributes?: Record<string, unknown> } = {}) {
  const r = await call<{ _id: string }>(gw, 'POST', '/v1/contacts', owner, { email, status: 'subscribed', ...extra });
  assert.equal(r.status, 201, r.text);
  return r.body._id;
}
const trig = (id: string, email: string, data: Record<string, unknown> = {}, who = owner) =>
  call<AutomationTriggered>(gw, 'POST', `/v1/automations/${id}/trigger`, who, { email, data });
async function journeys(id: string) {
  const r = await call<JourneyPage>(gw, 'GET', `/v1/automations/${id}/journeys?perPage=100`, owner);
  assert.equal(r.status, 200, r.text);
  return r.body.records;
}
async function row(id: string): Promise<Automation> {
  const r = await call<AutomationDetail>(gw, 'GET', `/v1/automations/${id}`, owner);
  assert.equal(r.status, 200, r.text);
  return r.body;
}
async function messagesTo(email: string) {
  return queryRows(
    db(),
    sql`select m.data, r.status from transactional_messages m join campaign_recipients r on r.id = m.recipient_id
         where r.address = ${email}`,
  );
}

before(async () => {
  peer = await startSmtpPeer();
  gw = await startGateway({
    SMTP_URL: `smtp://127.0.0.1:${peer.port}`,
    AUTOMATIONS_POLL_MS: '0',
    SEND_POOL_SIZE: '2',
    JOBS_POLL_SECONDS: '0.5',
  });
  [owner, staff, labOwner] = await Promise.all([gw.login('acmeOwner'), gw.login('acmeStaff'), gw.login('labOwner')]);
  acme = await tenantId(gw, 'Acme DAO');
  await generousPlans(db());
  const made = await call<Template>(gw, 'POST', '/v1/templates', owner, { name: 'Journey mail', kind: 'marketing' });
  assert.equal(made.status, 201, made.text);
  template = made.body._id;
  const saved = await call(gw, 'PATCH', `/v1/templates/${template}`, owner, {
    subject: 'Hello {{ data.name }}{{ event.name }}',
    mjml: `<mjml><mj-body><mj-section><mj-column>
      <mj-text>Amount {{ event.args.value | token: 18 }} {{ data.name }}</mj-text>
    </mj-column></mj-section></mj-body></mjml>`,
  });
  assert.equal(saved.status, 200, saved.text);
});

after(async () => {
  await gw.close();
  await peer.close();
});

describe('the runtime', () => {
  it('waits on the clock, then sends once and completes; the grid counts it', async () => {
    const id = await create(line(trigger(), wait('hour', 3600), send('mail'), exit()));
    await activate(id);
    await contact('waiter@example.org');
    const r = await trig(id, 'waiter@example.org', { name: 'Ada' });
    assert.equal(r.status, 202, r.text);
    assert.equal(r.body.entered, true);
    await run(T0);
    let [j] = await journeys(id);
    assert.equal(j?.state, 'waiting');
    assert.equal(j?.current_step, 'hour');
    assert.equal(j?.due_at, minutes(60).toISOString());
    await run(minutes(59));
    assert.equal((await messagesTo('waiter@example.org')).length, 0, 'nothing sent before the wait ends');
    await run(minutes(60));
    [j] = await journeys(id);
    assert.equal(j?.state, 'completed');
    assert.deepEqual(
      j?.steps.map((s) => [s.node_id, s.outcome]),
      [
        ['start', 'entered'],
        ['hour', 'waited'],
        ['mail', 'sent'],
        ['end', 'exit'],
      ],
    );
    await run(minutes(120));
    assert.equal((await messagesTo('waiter@example.org')).length, 1, 'one message, however often the runner passes');
    const a = await row(id);
    assert.deepEqual([a.entered, a.completed, a.emails_sent, a.trigger], [1, 1, 1, 'api_call']);
    await waitUntil(() => peer.received.some((m) => m.to === 'waiter@example.org'), 30_000, 'the mail at the peer');
    const mail = await parseMail(peer.received.find((m) => m.to === 'waiter@example.org')!.raw);
    assert.equal(mail.subject, 'Hello Ada');
  });

  it('takes the yes and no branches of a condition on the contact', async () => {
    // The demo audience has the text attribute Tier (`tier`).
    const vip = await createList(db(), acme, 'VIP');
    const graph: JourneyGraph = {
      nodes: [
        trigger(),
        {
          id: 'gold?',
          type: 'condition',
          position: at,
          data: {
            on: 'contact',
            rule: { combinator: 'and', rules: [{ field: 'attr.tier', operator: '=', value: 'gold' }] },
          },
        },
        { id: 'add', type: 'update_contact', position: at, data: { action: 'add_to_list', list_id: vip } },
        exit('done'),
        exit('other'),
      ],
      edges: [edge('start', 'gold?'), edge('gold?', 'add', 'yes'), edge('gold?', 'other', 'no'), edge('add', 'done')],
    };
    const id = await create(graph);
    await activate(id);
    const gold = await contact('gold@example.org', { attributes: { tier: 'gold' } });
    const plain = await contact('plain@example.org', { attributes: { tier: 'silver' } });
    await trig(id, 'gold@example.org');
    await trig(id, 'plain@example.org');
    await run(T0);
    const byEmail = new Map((await journeys(id)).map((j) => [j.contact.email, j]));
    assert.deepEqual(
      byEmail.get('gold@example.org')?.steps.map((s) => s.outcome),
      ['entered', 'yes', 'added to the list', 'exit'],
    );
    assert.deepEqual(
      byEmail.get('plain@example.org')?.steps.map((s) => s.outcome),
      ['entered', 'no', 'exit'],
    );
    const members = await queryRows(db(), sql`select contact_id::text from list_members where list_id = ${vip}::uuid`);
    assert.deepEqual(
      members.map((m) => m.contact_id),
      [gold],
    );
    assert.ok(plain);
  });

  it('applies the re-entry rules: once, every time, at most once per N days', async () => {
    const graph = line(trigger(), exit());
    const once = await create(graph, { mode: 'once' });
    const every = await create(graph, { mode: 'every_time' });
    const perDay = await create(graph, { mode: 'once_per_days', days: 1 });
    for (const id of [once, every, perDay]) await activate(id);
    await contact('again@example.org');
    assert.equal((await trig(once, 'again@example.org')).body.entered, true);
    assert.equal((await trig(once, 'again@example.org')).body.entered, false);
    assert.equal((await trig(every, 'again@example.org')).body.entered, true);
    assert.equal((await trig(every, 'again@example.org')).body.entered, true);
    assert.deepEqual((await journeys(every)).map((j) => j.occurrence).sort(), [1, 2]);
    const [c] = await queryRows(db(), sql`select id::text from contacts where email = 'again@example.org'`);
    const target = { automationId: perDay, tenantId: acme, version: 1 };
    const enter = (now: Date) =>
      db().transaction((tx) => enterContacts(tx, target, [{ contactId: String(c!.id), context: {} }], now));
    assert.equal((await enter(T0)).size, 1);
    assert.equal((await enter(minutes(60 * 23))).size, 0, 'not again within the day');
    assert.equal((await enter(minutes(60 * 24))).size, 1, 'again once the day has passed');
  });

  it('finishes a journey on its version after a new version is activated', async () => {
    const id = await create(line(trigger(), wait('w', 600), send('mail'), exit()));
    await activate(id);
    await contact('v1@example.org');
    await contact('v2@example.org');
    await trig(id, 'v1@example.org');
    await run(T0);
    const edited = await call<AutomationDetail>(gw, 'PATCH', `/v1/automations/${id}`, owner, {
      graph: line(trigger(), exit()),
    });
    assert.equal(edited.status, 200, edited.text);
    assert.deepEqual([edited.body.version, edited.body.active_version], [2, 1]);
    await activate(id);
    await trig(id, 'v2@example.org');
    await run(minutes(10));
    const byEmail = new Map((await journeys(id)).map((j) => [j.contact.email, j]));
    assert.equal(byEmail.get('v1@example.org')?.version, 1);
    assert.deepEqual(
      byEmail.get('v1@example.org')?.steps.map((s) => s.outcome),
      ['entered', 'waited', 'sent', 'exit'],
    );
    assert.equal(byEmail.get('v2@example.org')?.version, 2);
    assert.deepEqual(
      byEmail.get('v2@example.org')?.steps.map((s) => s.outcome),
      ['entered', 'exit'],
    );
    assert.equal((await messagesTo('v2@example.org')).length, 0);
  });

  it('refuses a stale worker’s step once its lease was taken over (the generation fences it)', async () => {
    const id = await create(line(trigger(), send('mail'), exit()));
    await activate(id);
    await contact('fenced@example.org');
    await trig(id, 'fenced@example.org');
    const mine = (await claimDue(db(), T0, 100, 30)).filter((j) => j.automationId === id);
    assert.equal(mine.length, 1);
    assert.equal(
      (await claimDue(db(), minutes(0.25), 100, 30)).filter((j) => j.automationId === id).length,
      0,
      'leased',
    );
    // The first worker freezes past its lease; another claims the journey and runs it.
    const theirs = (await claimDue(db(), minutes(1), 100, 30)).filter((j) => j.automationId === id);
    assert.equal(theirs.length, 1);
    assert.equal(theirs[0]!.generation, mine[0]!.generation + 1);
    assert.equal(await advanceOnce(gw.app.deps, mine[0]!, minutes(1)), 'stale');
    assert.equal(await advanceOnce(gw.app.deps, theirs[0]!, minutes(1)), 'advanced');
    assert.equal(await advanceOnce(gw.app.deps, { ...mine[0]!, nodeId: 'mail' }, minutes(1)), 'stale');
    assert.equal(await advanceOnce(gw.app.deps, theirs[0]!, minutes(1)), 'advanced');
    assert.equal(await advanceOnce(gw.app.deps, theirs[0]!, minutes(1)), 'ended');
    assert.equal((await messagesTo('fenced@example.org')).length, 1, 'the stale worker wrote no message');
    assert.deepEqual(
      (await journeys(id))[0]?.steps.map((x) => x.outcome),
      ['entered', 'sent', 'exit'],
    );
  });

  it('refuses to activate what cannot run, naming the nodes', async () => {
    const id = await create({
      nodes: [trigger(), send('mail', ''), exit(), send('stray')],
      edges: [edge('start', 'mail'), edge('mail', 'end')],
    });
    const r = await call<AutomationInvalid>(gw, 'POST', `/v1/automations/${id}/activate`, owner);
    assert.equal(r.status, 400, r.text);
    assert.deepEqual(
      (r.body.problems ?? []).map((p) => p.node_id),
      ['stray', 'stray', 'mail'],
    );
    assert.equal((await row(id)).status, 'draft');
  });

  it('pauses (journeys keep their state) and resumes', async () => {
    const id = await create(line(trigger(), wait('w', 60), exit()));
    await activate(id);
    await contact('paused@example.org');
    await trig(id, 'paused@example.org');
    await run(T0);
    assert.equal((await call(gw, 'POST', `/v1/automations/${id}/pause`, owner)).status, 200);
    await run(minutes(5));
    assert.equal((await journeys(id))[0]?.state, 'waiting');
    assert.equal((await call(gw, 'POST', `/v1/automations/${id}/resume`, owner)).status, 200);
    await run(minutes(5));
    assert.equal((await journeys(id))[0]?.state, 'completed');
  });

  it('enters contacts who join a list, through the outbox written with the membership', async () => {
    const list = await createList(db(), acme, 'Joiners');
    const id = await create(line(trigger({ type: 'list_joined', list_id: list }), exit()));
    await activate(id);
    const joined = await contact('joiner@example.org');
    const r = await call(gw, 'PATCH', `/v1/lists/${list}/contacts`, owner, { contacts: [joined] });
    assert.ok(r.status < 300, r.text);
    await run(T0);
    const [j] = await journeys(id);
    assert.equal(j?.contact.email, 'joiner@example.org');
    assert.equal(j?.state, 'completed');
    const [left] = await queryRows(
      db(),
      sql`select count(*)::int as n from automation_outbox where automation_id = ${id}::uuid`,
    );
    assert.equal(left?.n, 0);
  });

  it('enters contacts who sign up through a widget, in the sign-up’s transaction', async () => {
    const list = await createList(db(), acme, 'Widget list');
    const [w] = await queryRows(
      db(),
      sql`insert into widgets (tenant_id, type, target_id, url)
          values (${acme}::uuid, 'Subscription Widget', ${list}::uuid, 'https://acme.example') returning id::text`,
    );
    const widget = String(w!.id);
    const id = await create(line(trigger({ type: 'widget_signup', widget_id: widget }), exit()));
    await activate(id);
    await db().transaction((tx) =>
      subscribe(tx, { tenantId: acme, listId: list, widgetId: widget }, { email: 'signup@example.org' }),
    );
    await run(T0);
    const [j] = await journeys(id);
    assert.equal(j?.contact.email, 'signup@example.org');
    assert.equal(j?.state, 'completed');
  });

  it('enters contacts as they enter a segment (the diff against the members seen)', async () => {
    const seg = await call<{ _id: string }>(gw, 'POST', '/v1/segments', owner, {
      name: 'Platinum',
      rule: { combinator: 'and', rules: [{ field: 'attr.tier', operator: '=', value: 'platinum' }] },
    });
    assert.equal(seg.status, 201, seg.text);
    const first = await contact('plat1@example.org', { attributes: { tier: 'platinum' } });
    const id = await create(line(trigger({ type: 'segment_entered', segment_id: seg.body._id }), exit()), {
      mode: 'every_time',
    });
    await activate(id);
    await run(T0);
    assert.deepEqual(
      (await journeys(id)).map((j) => j.contact.email),
      ['plat1@example.org'],
    );
    await contact('plat2@example.org', { attributes: { tier: 'platinum' } });
    await run(minutes(1));
    assert.deepEqual((await journeys(id)).map((j) => j.contact.email).sort(), [
      'plat1@example.org',
      'plat2@example.org',
    ]);
    // Leaving and coming back is a new entry.
    await call(gw, 'PATCH', `/v1/contacts/${first}`, owner, { attributes: { tier: 'gold' } });
    await run(minutes(2));
    await call(gw, 'PATCH', `/v1/contacts/${first}`, owner, { attributes: { tier: 'platinum' } });
    await run(minutes(3));
    const occurrences = (await journeys(id))
      .filter((j) => j.contact.email === 'plat1@example.org')
      .map((j) => j.occurrence);
    assert.deepEqual(occurrences.sort(), [1, 2]);
  });

  it('enters contacts on their date attribute, once a day, at the time in the tenant’s zone', async () => {
    const attr = await call(gw, 'POST', '/v1/custom-attributes', owner, {
      name: 'Joined on',
      key: 'joined_on',
      type: 'date',
    });
    assert.equal(attr.status, 201, attr.text);
    await db().execute(sql`update tenants set time_zone = 'Asia/Tokyo' where id = ${acme}::uuid`);
    try {
      // T0 is 2026-12-01 19:00 in Tokyo; a week before the anniversary of 2020-12-08.
      await contact('anniv@example.org', { attributes: { joined_on: '2020-12-08' } });
      await contact('other-day@example.org', { attributes: { joined_on: '2020-12-09' } });
      const id = await create(
        line(trigger({ type: 'date_attribute', attribute: 'joined_on', offset_days: -7, time: '20:00' }), exit()),
        { mode: 'every_time' },
      );
      await activate(id);
      await run(T0);
      assert.equal((await journeys(id)).length, 0, 'not before 20:00 Tokyo time');
      await run(minutes(60));
      assert.deepEqual(
        (await journeys(id)).map((j) => j.contact.email),
        ['anniv@example.org'],
      );
      await run(minutes(120));
      assert.equal((await journeys(id)).length, 1, 'once that day');
    } finally {
      await db().execute(sql`update tenants set time_zone = 'UTC' where id = ${acme}::uuid`);
    }
  });

  it('a contract event enters its wallet’s contact and the e-mail carries the exact value', async () => {
    const abi = [
      {
        type: 'event',
        name: 'Transfer',
        inputs: [
          { name: 'from', type: 'address', indexed: true },
          { name: 'to', type: 'address', indexed: true },
          { name: 'value', type: 'uint256', indexed: false },
        ],
      },
    ];
    const [watched] = await queryRows(
      db(),
      sql`insert into watched_contracts (tenant_id, chain_id, address, name, abi, events, start_block, last_block)
          values (${acme}::uuid, 31337, '0x00000000000000000000000000000000000000c0', 'Token', ${JSON.stringify(abi)}::jsonb,
                  '{"Transfer(address,address,uint256)"}', 0, 0)
          returning id::text`,
    );
    const contractId = String(watched!.id);
    const wallet = '0x1111111111111111111111111111111111111111';
    await contact('holder@example.org', { wallet });
    const id = await create(
      line(
        trigger({
          type: 'contract_event',
          contract_id: contractId,
          event: 'Transfer',
          wallet_arg: 'to',
          conditions: [{ arg: 'value', operator: '>=', value: '1000 * 10^18' }],
        }),
        send('mail'),
        exit(),
      ),
    );
    await activate(id);
    const event = (log: number, value: string) =>
      db().execute(
        sql`insert into contract_events (contract_id, tenant_id, event_name, args, wallets, block_number, block_hash, block_time, tx_hash, log_index)
            values (${contractId}::uuid, ${acme}::uuid, 'Transfer',
                    ${JSON.stringify({ from: '0x2222222222222222222222222222222222222222', to: wallet, value })}::jsonb,
                    ${`{0x2222222222222222222222222222222222222222,${wallet}}`}, 1, '0xb', now(), ${`0xt${log}`}, ${log})`,
      );
    const big = (1000n * 10n ** 18n + 7n).toString();
    await event(1, (999n * 10n ** 18n).toString());
    await event(2, big);
    await run(T0);
    await run(T0);
    const js = await journeys(id);
    assert.equal(js.length, 1, 'only the event over the threshold enters');
    assert.equal(js[0]?.state, 'completed');
    const [m] = await messagesTo('holder@example.org');
    assert.equal((m?.data as { event: { args: { value: string } } }).event.args.value, big);
    await waitUntil(() => peer.received.some((x) => x.to === 'holder@example.org'), 30_000, 'the event mail');
    const mail = await parseMail(peer.received.find((x) => x.to === 'holder@example.org')!.raw);
    assert.match(mail.text ?? '', /Amount 1000\.000000000000000007/);
    assert.equal(mail.subject, 'Hello Transfer');
  });
});

describe('templates in use', () => {
  it('a template an active automation sends cannot be deleted', async () => {
    const r = await call<{ message: string }>(gw, 'DELETE', `/v1/templates/${template}`, owner);
    assert.equal(r.status, 409, r.text);
    assert.match(r.body.message, /active automations? \(/);
  });
});

describe('access', () => {
  it('staff without automations get 403; another tenant’s automation is 404', async () => {
    assert.equal((await call(gw, 'GET', '/v1/automations', staff)).status, 403);
    const basic = await call<{ message: string }>(gw, 'GET', '/v1/automations', await gw.login('basicOwner'));
    assert.equal(basic.status, 403, 'a plan without the automations feature');
    const id = await create(line(trigger(), exit()));
    assert.equal((await call(gw, 'GET', `/v1/automations/${id}`, labOwner)).status, 404);
    assert.equal((await call(gw, 'POST', `/v1/automations/${id}/activate`, labOwner)).status, 404);
    assert.equal((await call(gw, 'DELETE', `/v1/automations/${id}`, labOwner)).status, 404);
    const page = await call<AutomationPage>(gw, 'GET', '/v1/automations', labOwner);
    assert.ok(!page.body.records.some((a) => a._id === id));
  });

  it('an API key of scope sending triggers, and cannot manage automations', async () => {
    const key = await createApiKey(gw, 'labOwner', 'sending');
    const id = await create(line(trigger(), exit()), { mode: 'once' }, labOwner);
    await activate(id, labOwner);
    const c = await call<{ _id: string }>(gw, 'POST', '/v1/contacts', labOwner, { email: 'api@example.org' });
    assert.equal(c.status, 201, c.text);
    const headers = { authorization: key.authorization };
    const r = await gw.request<AutomationTriggered>(`/v1/automations/${id}/trigger`, {
      method: 'POST',
      body: { email: 'api@example.org', data: { order: 7 } },
      headers,
    });
    assert.equal(r.status, 202, r.text);
    assert.equal(r.body.entered, true);
    assert.equal((await gw.request('/v1/automations', { headers })).status, 403);
    const unknown = await gw.request(`/v1/automations/${id}/trigger`, {
      method: 'POST',
      body: { email: 'nobody@example.org' },
      headers,
    });
    assert.equal(unknown.status, 404);
  });
});
