import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import AxeBuilder from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { cookieNames, launch, loadedWidth, newSession, signIn } from '../lib/browser.ts';
import { E2E_ENV, startTestSystem } from '../lib/system.ts';
import { mailTo } from '../lib/outbox.ts';

let system: Awaited<ReturnType<typeof startTestSystem>>;
let browser: Browser;
let shellUrl: string;
const adminOrigin = `http://localhost:${E2E_ENV.MFE_ADMIN_PORT}`;
/** A 1×1 PNG: a real image the gateway accepts and the browser decodes. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

before(async () => {
  system = await startTestSystem();
  shellUrl = system.urls.shell;
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await system?.stop();
});

describe('login', () => {
  test('success lands on the overview with the tenant sidebar', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await signIn(page, 'owner@acme.test', 'owner-pass-2026');
    await page.getByTestId('overview-tenant').filter({ hasText: 'Acme DAO' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Contacts' }).waitFor();
    assert.equal(await nav.getByRole('link', { name: 'Developer Docs' }).count(), 1);
    assert.deepEqual(await cookieNames(context), ['token']);
    await context.close();
  });

  test('a wrong password shows the server message', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await page.goto('/login');
    await page.getByLabel('Email').fill('owner@acme.test');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid credentials, please try again.' }).waitFor();
    assert.equal(page.url(), `${shellUrl}/login`);
    await context.close();
  });

  test('without a server message the fallback text shows', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await page.route('**/v1/auth/login', (route) => route.fulfill({ status: 500, body: '' }));
    await page.goto('/login');
    await page.getByLabel('Email').fill('owner@acme.test');
    await page.getByLabel('Password').fill('whatever');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid credentials, please try again.' }).waitFor();
    await context.close();
  });

  test('a throttled account shows the server message, not the fallback', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await page.goto('/login');
    await page.getByLabel('Email').fill('nobody-throttled@acme.test');
    let text = '';
    for (let i = 0; i < 8 && !/too many/i.test(text); i += 1) {
      await page.getByLabel('Password').fill(`wrong-${i}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Sign in' }).and(page.locator(':not([disabled])')).waitFor();
      text = (await page.getByRole('alert').textContent()) ?? '';
    }
    assert.match(text, /too many/i);
    await context.close();
  });
});

describe('guard', () => {
  test('no token: a protected route goes to /login', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await page.goto('/engagement/contacts');
    await page.waitForURL(`${shellUrl}/login`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await context.close();
  });

  test('a forged token: verification fails, sign-out, /login', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await context.addCookies([{ name: 'token', value: 'forged.token.value', url: shellUrl }]);
    await page.goto('/engagement/contacts');
    await page.waitForURL(`${shellUrl}/login`);
    assert.deepEqual(await cookieNames(context), []);
    await context.close();
  });

  test('a feature the plan lacks: back to / with the upgrade dialog', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await signIn(page, 'owner@basic.test', 'basic-pass-2026');
    await page.goto('/engagement/automations');
    await page.getByRole('dialog').getByText('Unlock more features!').waitFor();
    assert.equal(new URL(page.url()).pathname, '/');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    // The locked sidebar item opens the same dialog.
    await page.getByRole('button', { name: /Automations \(locked/ }).click();
    await page.getByRole('dialog').getByText('Unlock more features!').waitFor();
    await context.close();
  });

  test('a permission the user lacks: back to / and hidden from the sidebar', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await signIn(page, 'staff@acme.test', 'staff-pass-2026');
    const nav = page.getByRole('navigation', { name: 'Main' });
    assert.equal(await nav.getByText('Automations').count(), 0);
    await page.goto('/engagement/automations');
    await page.waitForURL(`${shellUrl}/`);
    assert.equal(await page.getByText('Unlock more features!').count(), 0);
    await context.close();
  });
});

describe('remotes', () => {
  test('tenant staff never request the admin remote; a remote reads the shell session', async () => {
    const { page, context, requests } = await newSession(browser, shellUrl);
    await signIn(page, 'owner@acme.test', 'owner-pass-2026');
    await page.goto('/account/profile');
    const email = page.getByTestId('profile').getByLabel('E-mail', { exact: true });
    await email.waitFor();
    assert.equal(await email.inputValue(), 'owner@acme.test');
    // A toast raised inside a remote shows in the shell's single Toaster.
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: shellUrl });
    await page.getByRole('button', { name: 'Copy e-mail address' }).click();
    await page.getByRole('status').filter({ hasText: 'E-mail address copied.' }).waitFor();
    assert.equal(await page.locator('[data-rht-toaster]').count(), 1);
    await page.goto('/onboarding/sso');
    await page.getByRole('heading', { name: 'SSO' }).waitFor();
    await page.goto('/tenants');
    await page.waitForURL(`${shellUrl}/`);
    // The same inside the running app: the guard preloads a remote page while it verifies, never the
    // admin remote's for a tenant user.
    await page.evaluate(() => {
      history.pushState(null, '', '/plans');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.waitForURL(`${shellUrl}/`);
    await page.waitForLoadState('networkidle');
    assert.deepEqual(
      requests.filter((u) => u.startsWith(adminOrigin)),
      [],
    );
    // One @console/shared for shell and remotes: the store module was evaluated once.
    assert.equal(
      await page.evaluate(() => (globalThis as { __consoleStoreEvaluations?: number }).__consoleStoreEvaluations),
      1,
    );
    await context.close();
  });

  test('a super admin downloads the admin remote and sees the admin sidebar', async () => {
    const { page, context, requests } = await newSession(browser, shellUrl);
    await signIn(page, 'admin@console.test', 'admin-pass-2026');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const label of ['Dashboard', 'Tenants', 'Plans', 'Applets'])
      await nav.getByRole('link', { name: label }).waitFor();
    assert.equal(await nav.getByText('Developer Docs').count(), 0);
    await nav.getByRole('link', { name: 'Tenants' }).click();
    await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor();
    assert.ok(requests.some((u) => u.startsWith(adminOrigin)));
    await context.close();
  });

  test('global admin: no sidebar and no toggle', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await signIn(page, 'global@console.test', 'global-pass-2026');
    assert.equal(await page.getByRole('navigation', { name: 'Main' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Open navigation' }).count(), 0);
    await context.close();
  });

  test('a remote taken down shows the unavailable state; other areas keep working; retry recovers', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await signIn(page, 'owner@acme.test', 'owner-pass-2026');
    await system.kill('mfe-engagement');
    const nav = page.getByRole('navigation', { name: 'Main' });
    try {
      await nav.getByRole('link', { name: 'Contacts' }).click();
      await page.getByRole('alert').getByText('This area is unavailable right now').waitFor();
      // The layout stays and other areas keep working.
      await nav.getByRole('link', { name: 'Widgets' }).click();
      await page.getByRole('heading', { name: 'Widgets', level: 1 }).waitFor();
      await nav.getByRole('link', { name: 'Contacts' }).click();
      await page.getByRole('alert').getByText('This area is unavailable right now').waitFor();
    } finally {
      await system.restart('mfe-engagement');
    }
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('heading', { name: 'Contacts', level: 1 }).waitFor();
    await context.close();
  });
});

describe('impersonation and sign-out', () => {
  test('super admin impersonates the Acme owner and stops', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await signIn(page, 'admin@console.test', 'admin-pass-2026');
    await page.goto('/tenants');
    await page.getByRole('button', { name: 'Impersonate owner@acme.test' }).click();
    await page.getByRole('button', { name: 'Stop Impersonating' }).waitFor();
    await page.getByTestId('tenant-name').filter({ hasText: 'Acme DAO' }).waitFor();
    assert.deepEqual(await cookieNames(context), ['admin_token', 'token']);
    // While impersonating, the tenant sidebar shows Community Page.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Community Page' }).waitFor();
    await page.getByRole('button', { name: 'Stop Impersonating' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tenants' }).waitFor();
    assert.deepEqual(await cookieNames(context), ['token']);
    await context.close();
  });

  test('sign-out clears both cookies and goes to /login', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await signIn(page, 'admin@console.test', 'admin-pass-2026');
    await page.goto('/tenants');
    await page.getByRole('button', { name: 'Impersonate owner@acme.test' }).click();
    await page.getByRole('button', { name: 'Stop Impersonating' }).waitFor();
    await page.getByRole('button', { name: /profile menu/i }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await page.waitForURL(`${shellUrl}/login`);
    assert.deepEqual(await cookieNames(context), []);
    await context.close();
  });
});

describe('layout', () => {
  test('mobile: the sidebar slides in from a toggle and Escape closes it', async () => {
    const context = await browser.newContext({ baseURL: shellUrl, viewport: { width: 390, height: 800 } });
    const page = await context.newPage();
    await signIn(page, 'owner@acme.test', 'owner-pass-2026');
    assert.equal(await page.getByTestId('desktop-sidebar').isVisible(), false);
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const drawer = page.getByRole('dialog', { name: 'Navigation' });
    await drawer.getByRole('link', { name: 'Contacts' }).waitFor();
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await drawer.getByRole('link', { name: 'Lists' }).click();
    await page.getByRole('heading', { name: 'Lists', level: 1 }).waitFor();
    await drawer.waitFor({ state: 'detached' });
    await context.close();
  });

  test('a tenant named with the experimental prefix gets the experimental flag', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await signIn(page, 'owner@lab.test', 'lab-pass-2026');
    await page.getByText('Experimental features on').waitFor();
    await context.close();
    const other = await newSession(browser, shellUrl);
    await signIn(other.page, 'owner@acme.test', 'owner-pass-2026');
    assert.equal(await other.page.getByText('Experimental features on').count(), 0);
    await other.context.close();
  });
});

describe('security', () => {
  test('the shell sends a CSP without inline script, and its pages carry none', async () => {
    const res = await fetch(`${shellUrl}/login`);
    const csp = res.headers.get('content-security-policy') ?? '';
    const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
    assert.ok(scriptSrc.includes("'self'"));
    assert.ok(!scriptSrc.includes('unsafe-inline') && !scriptSrc.includes('unsafe-eval'), csp);
    const html = await res.text();
    assert.deepEqual(html.match(/<script(?![^>]*\bsrc=)[^>]*>/g) ?? [], []);
  });

  test('signing in and moving between areas logs no errors and no CSP violations', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await signIn(page, 'owner@acme.test', 'owner-pass-2026');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Contacts' }).click();
    await page.getByRole('heading', { name: 'Contacts', level: 1 }).waitFor();
    await page.goto('/account/profile');
    await page.getByTestId('profile').waitFor();
    assert.deepEqual(problems, []);
    await context.close();
  });
});

describe('accessibility', () => {
  test('login and overview have no serious or critical axe violations', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const serious = async () =>
      (await new AxeBuilder({ page }).analyze()).violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    assert.deepEqual(await serious(), []);
    await signIn(page, 'owner@acme.test', 'owner-pass-2026');
    assert.deepEqual(await serious(), []);
    await context.close();
  });
});

describe('password reset through the e-mailed link', () => {
  const mailToUser = (to: string) => mailTo(system.dataDir, to);

  test('request, open the link, choose a password, sign in with it; the link works once', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email').fill('owner@lab.test');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    const link = /(http:\/\/localhost:\d+\/reset\/[0-9a-f-]+\/[A-Za-z0-9_-]+)/.exec(
      await mailToUser('owner@lab.test'),
    )?.[1];
    assert.ok(link, 'the mail carries a reset link to the console');
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('a-brand-new-pass-2026');
    await page.getByLabel('Repeat the new password').fill('a-brand-new-pass-2026');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('heading', { name: 'Password changed' }).waitFor();
    await signIn(page, 'owner@lab.test', 'a-brand-new-pass-2026');
    // A used link is refused with a way forward.
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('another-pass-2026!');
    await page.getByLabel('Repeat the new password').fill('another-pass-2026!');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').getByRole('link', { name: 'Ask for a new link' }).waitFor();
    await context.close();
  });
});

describe('a user without a tenant', () => {
  // Spec section 2: Your Profile and Change Password take no permission, so a global admin opens both.
  test('the global admin opens their profile, uploads an avatar and changes their password', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await signIn(page, 'global@console.test', 'global-pass-2026');
    await page.goto('/account/profile');
    const profile = page.getByTestId('profile');
    const email = profile.getByLabel('E-mail', { exact: true });
    await email.waitFor();
    assert.equal(await email.inputValue(), 'global@console.test');
    // A user without a tenant uploads an avatar of their own.
    await profile.getByLabel('Avatar').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
    await profile.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your profile has been saved.').waitFor();
    const avatar = profile.locator(`img[src^="${system.urls.gateway}/files/"]`);
    await avatar.waitFor();
    assert.equal(await loadedWidth(avatar), 1, 'the stored avatar loads');
    await page.reload();
    await profile.locator(`img[src^="${system.urls.gateway}/files/"]`).waitFor();
    await page.goto('/account/change-password');
    await page.getByLabel('Current password').fill('global-pass-2026');
    await page.getByLabel('New password', { exact: true }).fill('a much longer global pass 2026');
    await page.getByLabel('Repeat the new password').fill('a much longer global pass 2026');
    await page.getByRole('button', { name: /Change password/ }).click();
    await page.getByText('Your password has been changed. Other sessions have been signed out.').waitFor();
    assert.equal(await page.getByText('This area is unavailable right now').count(), 0);
    await context.close();
    const again = await newSession(browser, shellUrl);
    await signIn(again.page, 'global@console.test', 'a much longer global pass 2026');
    await again.context.close();
  });
});
