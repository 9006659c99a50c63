import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  campaignHeaders,
  campaignListHeaders,
  decorateHtml,
  decorateText,
  withUtm,
  type TrackingSettings,
} from './decorate';
import { trackingUrls, verifyClick } from './links';

const SECRET = 'test-secret';
const urls = trackingUrls('https://t.example', SECRET, 9);
const NO_UTM = { source: '', medium: '', campaign: '', term: '', content: '' };
const all: TrackingSettings = { trackOpens: true, trackClicks: true, utm: NO_UTM };

/** The target of a click redirect, checked to be genuine. */
function targetOf(href: string): string {
  const u = new URL(href);
  const target = u.searchParams.get('u') ?? '';
  assert.equal(verifyClick(SECRET, u.pathname.split('/').pop() ?? '', target), 9, `genuine click: ${href}`);
  return target;
}

describe('message decoration', () => {
  it('adds the UTM parameters that are set and not already there', () => {
    const utm = { ...NO_UTM, source: 'news letter', medium: 'email', campaign: 'may' };
    assert.equal(
      withUtm('https://a.example/p?x=1&utm_medium=own', utm),
      'https://a.example/p?x=1&utm_medium=own&utm_source=news+letter&utm_campaign=may',
    );
    assert.equal(withUtm('mailto:a@b.example', utm), 'mailto:a@b.example');
    assert.equal(withUtm('https://a.example/', NO_UTM), 'https://a.example/', 'unchanged without values');
    assert.equal(withUtm('https://[bad', utm), 'https://[bad', 'an unparsable URL is left alone');
  });

  it('turns http(s) links into signed click redirects, with entities decoded and encoded again', () => {
    const html = `<html><body><a href="https://a.example/?x=1&amp;y=2">A</a> <a class="b" href='http://b.example/'>B</a>
<a href="mailto:x@y.example">M</a> <a href="#top">T</a></body></html>`;
    const out = decorateHtml(html, urls, all);
    const hrefs = [...out.matchAll(/href=(["'])([^"']*)\1/g)].map((m) => (m[2] ?? '').replace(/&amp;/g, '&'));
    assert.equal(targetOf(hrefs[0] ?? ''), 'https://a.example/?x=1&y=2');
    assert.equal(targetOf(hrefs[1] ?? ''), 'http://b.example/');
    assert.equal(hrefs[2], 'mailto:x@y.example', 'mailto untouched');
    assert.equal(hrefs[3], '#top', 'anchors untouched');
    assert.doesNotMatch(out, /href="[^"]*&(?!amp;)/, 'ampersands in attributes are encoded');
  });

  it("leaves the recipient's unsubscribe and view links as they are", () => {
    const html = `<a href="${urls.unsubscribe}">u</a><a href="${urls.view}">v</a>`;
    const out = decorateHtml(html, urls, all);
    assert.ok(out.includes(`href="${urls.unsubscribe}"`));
    assert.ok(out.includes(`href="${urls.view}"`));
  });

  it('adds the open pixel before </body>, or at the end, and only when opens are tracked', () => {
    const withBody = decorateHtml('<body><p>x</p></body>', urls, all);
    assert.match(withBody, /<img src="https:\/\/t\.example\/email\/open\/[^"]+\.gif"[^>]*><\/body>$/);
    const bare = decorateHtml('<p>x</p>', urls, all);
    assert.ok(bare.endsWith('/>') && bare.includes(urls.open));
    assert.ok(!decorateHtml('<body></body>', urls, { ...all, trackOpens: false }).includes('/email/open/'));
  });

  it('without click tracking keeps links direct, with UTM', () => {
    const out = decorateHtml('<a href="https://a.example/">A</a>', urls, {
      trackOpens: false,
      trackClicks: false,
      utm: { ...NO_UTM, source: 's' },
    });
    assert.equal(out, '<a href="https://a.example/?utm_source=s">A</a>');
  });

  it("gives each send's links that send's UTM parameters, recipient after recipient", () => {
    const direct = (utm: TrackingSettings['utm']) => ({ trackOpens: false, trackClicks: false, utm });
    const may = direct({ ...NO_UTM, campaign: 'may' });
    const june = direct({ ...NO_UTM, campaign: 'june' });
    const html = (n: number) => `<a href="https://a.example/p${n}">A</a>`;
    for (let round = 0; round < 2; round++) {
      // More links than the send keeps (1,000), and the first ones again after them.
      for (let n = 0; n < 1_200; n++) {
        assert.equal(decorateHtml(html(n), urls, may), `<a href="https://a.example/p${n}?utm_campaign=may">A</a>`);
        assert.equal(decorateHtml(html(n), urls, june), `<a href="https://a.example/p${n}?utm_campaign=june">A</a>`);
        assert.equal(decorateText(`https://a.example/p${n}`, urls, june), `https://a.example/p${n}?utm_campaign=june`);
      }
    }
  });

  it('decorates URLs in the text part, without a pixel', () => {
    const out = decorateText(`Read https://a.example/x. Or ${urls.unsubscribe}\n`, urls, all);
    const [first] = out.split(' ');
    assert.equal(first, 'Read');
    const link = /https:\/\/t\.example\/email\/click\/\S+?(?=\.\s)/.exec(out)?.[0] ?? '';
    assert.equal(targetOf(link), 'https://a.example/x');
    assert.ok(out.includes(urls.unsubscribe));
    assert.ok(!out.includes('/email/open/'));
  });

  it('carries RFC 8058 one-click unsubscribe headers and the recipient token', () => {
    const h = campaignHeaders(urls, 'tok', 'mailto:unsub@mail.example?subject=unsubscribe-tok');
    assert.equal(h['List-Unsubscribe'], `<${urls.unsubscribe}>, <mailto:unsub@mail.example?subject=unsubscribe-tok>`);
    assert.equal(h['List-Unsubscribe-Post'], 'List-Unsubscribe=One-Click');
    assert.equal(h['X-Recipient-Id'], 'tok');
    assert.equal(campaignHeaders(urls, 'tok', null)['List-Unsubscribe'], `<${urls.unsubscribe}>`);
  });

  it('names the list (RFC 2919) and the feedback loop of every message of a campaign', () => {
    const campaign = { id: 'c-1', tenantId: 't-1' };
    assert.deepEqual(campaignListHeaders(campaign, 'Acme "DAO"', 'console.test'), {
      'List-Id': '"Acme \\"DAO\\"" <t-1.console.test>',
      'Feedback-ID': 'c-1:t-1:console.test',
    });
    // A name past ASCII is left out of the phrase (it is optional) rather than encoded inside it.
    assert.equal(campaignListHeaders(campaign, 'Gilde Über', 'console.test')['List-Id'], '<t-1.console.test>');
  });
});
