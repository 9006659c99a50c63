import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import vm from 'node:vm';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { WidgetType } from '../../contracts';
import { communities, contacts, lists, plans, tenants, widgets } from '../../db/schema';
import { CHECK_INBOX } from './signup-email';
import { SIGNED_UP } from './signup-wallet';
import { startGateway, type TestGateway } from '../../../test/helpers';

let gw: TestGateway;
let tenantId: string;
let sdk: string;

before(async () => {
  gw = await startGateway();
  const [plan] = await gw.handle.db.select({ id: plans.id }).from(plans).limit(1);
  assert.ok(plan);
  const [tenant] = await gw.handle.db
    .insert(tenants)
    .values({ name: 'SDK Tenant', planId: plan.id })
    .returning({ id: tenants.id });
  assert.ok(tenant);
  tenantId = tenant.id;
  await gw.handle.db.insert(communities).values({ tenantId, title: 'SDK <Friends>', slug: 'sdk-friends' });
  sdk = (await gw.get<string>('/sdk/emt-sdk.js')).text;
});
after(() => gw.close());

async function newWidget(type: WidgetType) {
  const [list] = await gw.handle.db
    .insert(lists)
    .values({ tenantId, name: `sdk ${randomBytes(4).toString('hex')}` })
    .returning({ id: lists.id });
  assert.ok(list);
  const [widget] = await gw.handle.db
    .insert(widgets)
    .values({ tenantId, type, targetId: list.id, url: 'https://site.example/' })
    .returning({ id: widgets.id });
  assert.ok(widget);
  return widget.id;
}

// A very small DOM: enough to run the SDK as a browser would, and strict where it matters
// (setting innerHTML / outerHTML throws: server data must go through textContent).
type Listener = (event: { preventDefault(): void }) => void;

class FakeElement {
  readonly attributes = new Map<string, string>();
  readonly children: FakeElement[] = [];
  readonly listeners = new Map<string, Listener[]>();
  parentNode: FakeElement | null = null;
  nextSibling: FakeElement | null = null;
  textContent = '';
  value = '';
  disabled = false;
  src = '';
  constructor(readonly tagName: string) {}
  setAttribute(name: string, value: string) {
    this.attributes.set(name, String(value));
  }
  getAttribute(name: string) {
    return this.attributes.get(name) ?? null;
  }
  appendChild(child: FakeElement) {
    child.parentNode = this;
    this.children.push(child);
    return child;
  }
  insertBefore(child: FakeElement, before: FakeElement | null) {
    child.parentNode = this;
    const at = before ? this.children.indexOf(before) : -1;
    if (at === -1) this.children.push(child);
    else this.children.splice(at, 0, child);
    return child;
  }
  addEventListener(type: string, listener: Listener) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  dispatch(type: string) {
    for (const l of this.listeners.get(type) ?? []) l({ preventDefault() {} });
  }
  focus() {}
  set innerHTML(_value: string) {
    throw new Error('innerHTML used');
  }
  set outerHTML(_value: string) {
    throw new Error('outerHTML used');
  }
  /** Depth-first search. */
  find(test: (e: FakeElement) => boolean): FakeElement | null {
    for (const c of this.children) {
      if (test(c)) return c;
      const deep = c.find(test);
      if (deep) return deep;
    }
    return null;
  }
}

interface Ethereum {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

function runSdk(attributes: Record<string, string>, ethereum?: Ethereum) {
  const body = new FakeElement('body');
  const head = new FakeElement('head');
  const script = new FakeElement('script');
  script.src = `${gw.url}/sdk/emt-sdk.js`;
  for (const [k, v] of Object.entries(attributes)) script.setAttribute(k, v);
  body.appendChild(script);
  const document = {
    currentScript: script,
    head,
    body,
    documentElement: new FakeElement('html'),
    baseURI: 'https://site.example/page',
    createElement: (tag: string) => new FakeElement(tag),
    querySelectorAll: () => [script],
    addEventListener: () => {},
  };
  const requests: string[] = [];
  const fetchLogged = (input: string, init?: RequestInit) => {
    requests.push(`${init?.method ?? 'GET'} ${input}`);
    return fetch(input, init);
  };
  const context = vm.createContext({ document, window: ethereum ? { ethereum } : {}, fetch: fetchLogged, URL });
  new vm.Script(sdk, { filename: 'emt-sdk.js' }).runInContext(context);
  return { body, script, requests };
}

async function until<T>(probe: () => T | null | undefined | false, what: string): Promise<T> {
  const end = Date.now() + 5000;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const byText = (text: string) => (e: FakeElement) => e.tagName === 'button' && e.textContent === text;

describe('GET /sdk/emt-sdk.js', () => {
  it('is served as JavaScript to any site, cached a few minutes', async () => {
    const r = await gw.get<string>('/sdk/emt-sdk.js');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^application\/javascript/);
    assert.equal(r.headers.get('access-control-allow-origin'), '*');
    assert.match(r.headers.get('cache-control') ?? '', /max-age=300/);
    const etag = r.headers.get('etag');
    assert.ok(etag);
    const again = await gw.request('/sdk/emt-sdk.js', { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
  });

  it('is a plain classic script: no eval, no HTML strings, no syntax past ES2019', () => {
    assert.doesNotThrow(() => new vm.Script(sdk));
    for (const banned of [
      /\beval\s*\(/,
      /new\s+Function\b/,
      /innerHTML/,
      /outerHTML/,
      /insertAdjacentHTML/,
      /document\.write/,
    ]) {
      assert.ok(!banned.test(sdk), `${banned} in the SDK`);
    }
    assert.ok(!/\?\.|\?\?/.test(sdk), 'no optional chaining or nullish coalescing (ES2020)');
    assert.ok(!/^\s*(import|export)\s/m.test(sdk), 'not a module');
  });
});

describe('the SDK in a page', () => {
  it('draws an accessible e-mail form after its script tag and subscribes through the gateway', async () => {
    const widgetId = await newWidget('Subscription Widget');
    const page = runSdk({
      'data-widget-id': widgetId,
      'data-community-alias': 'sdk-friends',
      'data-features': 'subscribe',
    });
    const form = await until(() => page.body.find((e) => e.tagName === 'form'), 'the form');
    assert.equal(page.body.children[1]?.getAttribute('class'), 'emt-widget', 'inserted right after the script tag');
    assert.equal(form.getAttribute('aria-label'), 'Sign up to SDK <Friends>');
    const input = form.find((e) => e.tagName === 'input');
    const label = form.find((e) => e.tagName === 'label');
    assert.ok(input && label);
    assert.equal(label.getAttribute('for'), input.getAttribute('id'));
    assert.equal(input.getAttribute('type'), 'email');
    assert.ok(form.find(byText('Subscribe')));
    assert.equal(form.find(byText('Sign up with your wallet')), null, 'no wallet button without a wallet');
    const status = form.find((e) => e.getAttribute('role') === 'status');
    assert.ok(status);
    assert.equal(status.getAttribute('aria-live'), 'polite');
    assert.deepEqual(page.requests, [`GET ${gw.url}/public/widgets/${widgetId}`]);

    input.value = 'Sdk.User@Example.com';
    form.dispatch('submit');
    await until(() => status.textContent === CHECK_INBOX, `"${CHECK_INBOX}" (got "${status.textContent}")`);
    assert.equal(page.requests[1], `POST ${gw.url}/public/widgets/${widgetId}/signups`);
    await gw.waitForMail('sdk.user@example.com', /^Confirm your subscription/);

    input.value = 'not an e-mail';
    form.dispatch('submit');
    await until(() => status.getAttribute('data-state') === 'error', 'an error');
    assert.equal(status.textContent, 'Enter a valid e-mail address.');
  });

  it('signs a wallet up (Login Widget: wallet button only)', async () => {
    const widgetId = await newWidget('Login Widget');
    const account = privateKeyToAccount(generatePrivateKey());
    const calls: string[] = [];
    const ethereum: Ethereum = {
      async request({ method, params }) {
        calls.push(method);
        if (method === 'eth_requestAccounts') return [account.address.toLowerCase()];
        if (method === 'personal_sign' && Array.isArray(params) && typeof params[0] === 'string') {
          assert.equal(String(params[1]).toLowerCase(), account.address.toLowerCase());
          return account.signMessage({ message: params[0] });
        }
        throw new Error(`unexpected ${method}`);
      },
    };
    const page = runSdk({ 'data-widget-id': widgetId, 'data-features': 'login' }, ethereum);
    const button = await until(() => page.body.find(byText('Sign up with your wallet')), 'the wallet button');
    assert.equal(
      page.body.find((e) => e.tagName === 'input'),
      null,
      'no e-mail field',
    );
    button.dispatch('click');
    const status = page.body.find((e) => e.getAttribute('role') === 'status');
    assert.ok(status);
    await until(() => status.textContent === SIGNED_UP, `"${SIGNED_UP}" (got "${status.textContent}")`);
    assert.deepEqual(calls, ['eth_requestAccounts', 'personal_sign']);
    const rows = await gw.handle.db
      .select({ wallet: contacts.wallet })
      .from(contacts)
      .where(and(eq(contacts.tenantId, tenantId), eq(contacts.wallet, account.address)));
    assert.equal(rows.length, 1);
  });

  it('shows the server message for an unknown widget', async () => {
    const page = runSdk({ 'data-widget-id': '00000000-0000-4000-8000-000000000000' });
    const status = await until(
      () => page.body.find((e) => e.getAttribute('role') === 'status' && !!e.textContent),
      'a message',
    );
    assert.equal(status.textContent, 'This widget does not exist.');
  });
});
