import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isMachineAgent, isMachineRequest, MACHINE_WINDOW_MS } from './machine';

const SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
const GMAIL_PROXY = 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';

describe('machine opens and clicks', () => {
  const agents: [string | undefined, boolean][] = [
    [SAFARI, false],
    [GMAIL_PROXY, false], // Gmail fetches images when the person opens the e-mail
    ['Mozilla/5.0', true], // Apple Mail Privacy Protection
    [undefined, true],
    ['', true],
    ['Barracuda Sentinel (EE)', true],
    ['Mozilla/5.0 (compatible; Proofpoint URL Defense)', true],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0 Safari/537.36', true],
    ['python-requests/2.31', true],
    ['curl/8.5.0', true],
    ['Googlebot/2.1', true],
  ];
  for (const [ua, machine] of agents) {
    it(`${machine ? 'a machine' : 'a person'}: ${ua === undefined ? '(no agent)' : JSON.stringify(ua)}`, () => {
      assert.equal(isMachineAgent(ua), machine);
    });
  }

  it('takes HEAD requests and requests right after sending for machines', () => {
    const sentAt = new Date('2026-05-01T10:00:00Z');
    const at = (ms: number) => new Date(sentAt.getTime() + ms);
    const facts = { method: 'GET', userAgent: SAFARI, sentAt };
    assert.equal(isMachineRequest({ ...facts, now: at(MACHINE_WINDOW_MS + 1) }), false);
    assert.equal(isMachineRequest({ ...facts, now: at(MACHINE_WINDOW_MS - 1) }), true);
    assert.equal(isMachineRequest({ ...facts, method: 'HEAD', now: at(3_600_000) }), true);
    assert.equal(isMachineRequest({ ...facts, sentAt: null, now: at(0) }), false);
  });
});
