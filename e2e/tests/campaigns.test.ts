// Campaigns in Chromium against the started system: the Acme owner creates an e-mail, sends it to a
// segment with a template and a subject, and watches the delivery log fill; the e-mail arrives in the
// gateway's outbox, SpamAssassin scores it as a receiver would, its link is followed (the click shows
// in the log) and its unsubscribe link used (the contact is unsubscribed); the List-Unsubscribe mailto
// reaches the gateway's inbound SMTP receiver. axe reports nothing on the three screens and their
// dialogs. Nothing leaves this machine.
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, signIn } from '../lib/browser.ts';

const PERSON_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
import { mailTo, rawMailTo } from '../lib/outbox.ts';
import { sendSmtp } from '../lib/smtp.ts';
import { gatewayCall } from '../lib/api.ts';
import { E2E_ENV, startTestSystem } from '../lib/system.ts';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const READER = 'e2e-campaign-reader@example.test';

let system: Awaited<ReturnType<typeof startTestSystem>>;
let browser: Browser;

before(async () => {
  system = await startTestSystem();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await system?.stop();
});

/** A context whose requests to anywhere but this machine fail; `outside` lists every one attempted. */
async function offlineContext(): Promise<{ context: BrowserContext; page: Page; outside: string[] }> {
  const context = await browser.newContext({ baseURL: system.urls.shell, viewport: { width: 1400, height: 900 } });
  const outside: string[] = [];
  await context.route(
    (url) => !LOCAL_HOSTS.has(url.hostname),
    (route) => {
      outside.push(route.request().url());
      return route.abort('blockedbyclient');
    },
  );
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  return { context, page, outside };
}

/** axe on the page as it is now (e-mail previews and thumbnails, sandboxed frames, left out). */
async function axe(page: Page, where: string, found: string[]): Promise<void> {
  await page.waitForTimeout(350); // dialogs' enter transition
  const { violations } = await new AxeBuilder({ page })
    .withTags(TAGS)
    .exclude('[data-floating-ui-focus-guard]')
    .exclude('iframe[sandbox=""]')
    .analyze();
  for (const v of violations) {
    for (const node of v.nodes) found.push(`${where}: ${v.id} ${node.target.join(' ')} — ${node.failureSummary ?? ''}`);
  }
}

/** A call to the gateway with the signed-in page's token. */
const call = <T>(page: Page, method: string, path: string, body?: unknown) =>
  gatewayCall<T>(page, system.urls.gateway, method, path, body);

/** The figure on a log card ('Sent', 'Unsubscribed', …). */
const figure = (page: Page, label: string) =>
  page
    .getByTestId('log-figures')
    .locator('div')
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator('dd');

/** Reload the log until `check` holds (a finished campaign's log does not poll). */
async function reloadUntil(page: Page, check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 40; i += 1) {
    await page.getByTestId('log-figures').waitFor();
    if (await check()) return;
    await page.waitForTimeout(500);
    await page.reload();
  }
  assert.fail(`the log never showed ${what}`);
}

/**
 * SpamAssassin's score of a message (`spamassassin -L -t`: local tests only, as a receiver without
 * network checks would score it) and the rules that fired.
 */
function spamScore(raw: Buffer): { score: number; report: string } {
  const out = execFileSync('spamassassin', ['-L', '-t'], { input: raw, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  const report = out.slice(out.lastIndexOf('Content analysis details:'));
  const score = /Content analysis details:\s+\((-?[\d.]+) points/.exec(report)?.[1];
  assert.ok(score !== undefined, `no SpamAssassin report in:\n${out.slice(-2000)}`);
  return { score: Number(score), report };
}

/** Links of the sent e-mail's HTML (entities undone). */
function linksOf(mail: string): string[] {
  return [...mail.matchAll(/href="([^"]+)"/g)].map((m) => (m[1] ?? '').replace(/&amp;/g, '&'));
}

describe('campaigns', () => {
  test('compose to a segment, send, watch the log, click and unsubscribe from the e-mail; axe finds nothing', async () => {
    const { context, page, outside } = await offlineContext();
    const found: string[] = [];
    await signIn(page, 'owner@acme.test', 'owner-pass-2026');

    // What the e-mail needs: a contact, a segment of just them, a template.
    const contact = await call<{ _id: string }>(page, 'POST', '/v1/contacts', {
      email: READER,
      first_name: 'Reader',
      last_name: 'E2E',
    });
    await call(page, 'POST', '/v1/segments', {
      name: 'E2E campaign readers',
      description: '',
      rule: { combinator: 'and', rules: [{ field: 'email', operator: '=', value: READER }] },
    });
    await call(page, 'POST', '/v1/templates', {
      name: 'E2E campaign design',
      kind: 'marketing',
      starter: 'newsletter',
    });

    // The grid: uPlot (the log's chart, the chunk named "uplot" by the shared charts entry) is not
    // loaded here or in compose.
    const chartScripts: string[] = [];
    page.on('response', (response) => {
      if (/\/uplot[.-]/i.test(response.url())) chartScripts.push(response.url());
    });
    await page.goto('/engagement/emails');
    await page.getByRole('heading', { name: 'E-mails', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'E-mails' }).waitFor();
    await page.waitForLoadState('networkidle');
    await axe(page, 'e-mails grid', found);

    // Create: a name, then compose.
    await page.getByRole('button', { name: 'Create e-mail' }).click();
    const create = page.getByRole('dialog', { name: 'Create e-mail' });
    await create.getByRole('textbox', { name: 'Name' }).fill('E2E spring drop');
    await axe(page, 'create dialog', found);
    await create.getByRole('button', { name: 'Create and compose' }).click();
    await page.waitForURL(/\/engagement\/emails\/compose\/[^/]+$/);
    const campaignId = page.url().split('/').pop() ?? '';

    // Audience: the segment; the count says one person, by e-mail.
    const sendTo = page.getByRole('group', { name: 'Send to' });
    await sendTo.getByRole('checkbox', { name: /E2E campaign readers/ }).check();
    await page.getByTestId('reachable').filter({ hasText: /^1$/ }).waitFor();
    await page.locator('[data-testid="save-status"][data-state="saved"]').waitFor();
    await page.waitForLoadState('networkidle');
    await axe(page, 'compose: audience', found);

    // Content: the template and a subject (keyboard: the steps are tabs).
    await page.getByRole('tab', { name: /Audience/ }).focus();
    await page.keyboard.press('ArrowRight');
    await page.getByRole('tab', { name: /Content/, selected: true }).waitFor();
    await page.getByRole('radio', { name: 'E2E campaign design' }).check();
    await page.getByRole('textbox', { name: 'Subject' }).fill('E2E spring drop is here');
    await page.locator('[data-testid="save-status"][data-state="saved"]').waitFor();
    await axe(page, 'compose: content', found);
    await page.getByRole('tab', { name: /Settings/ }).click();
    await axe(page, 'compose: settings', found);

    // Review: nothing missing; the preview renders; send now says how many will receive it.
    await page.getByRole('tab', { name: /Review/ }).click();
    await page.locator('iframe[title="E-mail preview, desktop width"]').waitFor();
    const sendNow = page.getByRole('button', { name: 'Send now' });
    await page.getByTestId('incomplete').waitFor({ state: 'detached' });
    await page.locator('button:enabled', { hasText: /^Send now$/ }).waitFor();
    await axe(page, 'compose: review', found);
    await page.getByRole('button', { name: 'Send a test' }).click();
    const testDialog = page.getByRole('dialog', { name: 'Send a test' });
    await testDialog.waitFor();
    await axe(page, 'test dialog', found);
    await page.keyboard.press('Escape');
    await testDialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Schedule' }).click();
    const scheduleDialog = page.getByRole('dialog', { name: 'Schedule' });
    await scheduleDialog.getByRole('combobox', { name: 'Time zone' }).waitFor();
    await axe(page, 'schedule dialog', found);
    await page.keyboard.press('Escape');
    await scheduleDialog.waitFor({ state: 'hidden' });
    assert.deepEqual(chartScripts, [], 'the grid and compose load no chart code');
    await sendNow.click();
    const confirm = page.getByRole('dialog', { name: 'Send this e-mail now?' });
    await confirm.getByText('1 person will receive it.').waitFor();
    await axe(page, 'send dialog', found);
    await confirm.getByRole('button', { name: 'Confirm' }).click();

    // The log fills.
    await page.waitForURL(new RegExp(`/engagement/emails/log/${campaignId}$`));
    await page.getByRole('heading', { name: 'E2E spring drop', level: 1 }).waitFor();
    await reloadUntil(page, async () => (await figure(page, 'Sent').textContent()) === '1', 'one sent');
    await page
      .getByRole('img', { name: /^Delivery over time: chart/ })
      .locator('canvas')
      .waitFor();
    assert.ok(chartScripts.length > 0, 'the log loads the chart chunk');
    await page.getByRole('button', { name: 'Show as table' }).click();
    await page.getByRole('table', { name: 'Delivery over time' }).waitFor();
    await page.waitForLoadState('networkidle');
    await axe(page, 'delivery log', found);
    await page.getByRole('button', { name: `Timeline of ${READER}` }).click();
    const timeline = page.getByRole('dialog', { name: READER });
    await timeline.getByRole('list', { name: 'Timeline' }).waitFor();
    // The recipient's row holds when it was sent: the timeline starts there.
    await timeline.getByRole('listitem').first().getByText('Sent', { exact: true }).waitFor();
    await axe(page, 'recipient dialog', found);
    await page.keyboard.press('Escape');
    await timeline.waitFor({ state: 'hidden' });

    // The e-mail in the outbox: its link goes through the click redirect; the click shows in the log.
    const mail = await mailTo(system.dataDir, READER, /E2E spring drop is here/);
    assert.match(mail, /^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    // A receiver's scorer: the newsletter starter (the seeded "Monthly newsletter"'s design) at most 1.0;
    // its hidden preheader is not low-contrast text.
    const spam = spamScore(await rawMailTo(system.dataDir, READER, /E2E spring drop is here/));
    assert.ok(spam.score <= 1.0, `SpamAssassin scored ${spam.score}:\n${spam.report}`);
    assert.doesNotMatch(spam.report, /HTML_FONT_LOW_CONTRAST/);
    const links = linksOf(mail);
    const click = links.find((l) => l.includes('/email/click/'));
    assert.ok(click, 'a tracked link in the e-mail');
    // A person clicking in a desktop mail client (a headless browser's user agent is a link scanner's:
    // recorded as a machine click, not counted).
    // A click within 5 s of sending is a scanner's at the receiving server (gateway tracking/machine.ts,
    // MACHINE_WINDOW_MS): a person clicks later. The mail is in the outbox, so it was sent by now.
    await page.waitForTimeout(5_500);
    const redirected = await page.request.get(click, { maxRedirects: 0, headers: { 'User-Agent': PERSON_AGENT } });
    assert.ok([301, 302, 303, 307].includes(redirected.status()), `the click redirects (${redirected.status()})`);
    await reloadUntil(
      page,
      async () => (await page.getByRole('table', { name: 'Links and their clicks' }).count()) > 0,
      'a clicked link',
    );

    // Its unsubscribe link: the page confirms; the contact is unsubscribed; the log counts it.
    // The List-Unsubscribe header's https link (RFC 8058), else the footer's.
    const unsubscribe =
      /<(https?:\/\/[^>\s]*\/email\/unsubscribe\/[^>\s]+)>/.exec(mail)?.[1] ??
      links.find((l) => l.includes('/email/unsubscribe/'));
    assert.ok(unsubscribe, 'an unsubscribe link in the e-mail');
    const logUrl = page.url();
    await page.goto(unsubscribe);
    // The page asks to confirm (a prefetching mail scanner must not unsubscribe anyone by a GET).
    const confirmButton = page.getByRole('button', { name: /^unsubscribe/i });
    if ((await confirmButton.count()) > 0) await confirmButton.first().click();
    await page
      .getByText(/unsubscribed/i)
      .first()
      .waitFor();
    await page.goto(logUrl);
    const after = await call<{ status: string }>(page, 'GET', `/v1/contacts/${contact._id}`);
    assert.equal(after.status, 'unsubscribed');
    await reloadUntil(page, async () => (await figure(page, 'Unsubscribed').textContent()) === '1', 'one unsubscribe');

    // The List-Unsubscribe mailto goes to the gateway's inbound SMTP receiver: its signed subject is
    // taken (the contact is already unsubscribed: nothing more changes), an altered one refused.
    const mailto = /<mailto:([^?>]+)\?subject=([^>]+)>/.exec(mail);
    assert.ok(mailto, 'a mailto unsubscribe');
    const [, mailbox = '', subject = ''] = mailto;
    const inbound = Number(E2E_ENV.INBOUND_SMTP_PORT);
    const unsubscribeMail = (s: string) => `From: ${READER}\nTo: ${mailbox}\nSubject: ${s}\n\n\n`;
    const altered = subject.slice(0, -1) + (subject.endsWith('a') ? 'b' : 'a');
    assert.equal((await sendSmtp(inbound, mailbox, unsubscribeMail(altered))).code, 550);
    assert.equal((await sendSmtp(inbound, mailbox, unsubscribeMail(subject))).code, 250);
    assert.equal((await sendSmtp(inbound, `someone@${mailbox.split('@')[1]}`, unsubscribeMail(subject))).code, 550);

    // Back in the grid: the sent e-mail's row, with its actions.
    await page.goto('/engagement/emails');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'E2E spring drop' }) });
    await row.getByText('Sent', { exact: true }).waitFor();
    await row.getByRole('link', { name: 'View log of E2E spring drop' }).waitFor();

    assert.deepEqual(found, [], `axe found ${found.length} problems:\n${found.join('\n')}`);
    assert.deepEqual(outside, [], 'no request left localhost');
    await context.close();
  });

  test('staff without the templates permission compose with a marketing template', async () => {
    const { context, page, outside } = await offlineContext();
    const found: string[] = [];
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 403) refused.push(response.url());
    });
    await signIn(page, 'staff@acme.test', 'staff-pass-2026');
    await page.goto('/engagement/emails');
    await page.getByRole('button', { name: 'Create e-mail' }).click();
    const create = page.getByRole('dialog', { name: 'Create e-mail' });
    await create.getByRole('textbox', { name: 'Name' }).fill('E2E staff e-mail');
    await create.getByRole('button', { name: 'Create and compose' }).click();
    await page.waitForURL(/\/engagement\/emails\/compose\/[^/]+$/);
    const campaignId = page.url().split('/').pop() ?? '';

    await page.getByRole('tab', { name: /Content/ }).click();
    // The seeded marketing template, with its thumbnail; changing a design is not offered.
    await page.getByRole('radio', { name: 'Monthly newsletter' }).check();
    await page.locator('iframe[sandbox=""]').first().waitFor();
    assert.equal(await page.getByText('The templates could not be loaded.').count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Edit the design (on a copy)' }).count(), 0);
    await page.getByRole('textbox', { name: 'Subject' }).fill('From the staff');
    await page.locator('[data-testid="save-status"][data-state="saved"]').waitFor();
    await page.waitForLoadState('networkidle');
    await axe(page, 'staff compose: content', found);
    const saved = await call<{ template_id: string | null }>(page, 'GET', `/v1/campaigns/${campaignId}`);
    assert.ok(saved.template_id, 'the template is the content');

    // Review: the chosen template renders.
    await page.getByRole('tab', { name: /Review/ }).click();
    await page.locator('iframe[title="E-mail preview, desktop width"]').waitFor();
    assert.deepEqual(refused, [], 'no call was refused');
    assert.deepEqual(found, [], `axe found ${found.length} problems:\n${found.join('\n')}`);
    assert.deepEqual(outside, [], 'no request left localhost');
    await context.close();
  });
});
