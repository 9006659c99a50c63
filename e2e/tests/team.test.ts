// Manage Users in Chromium against the started system: the Lab Rats owner (GROW UP: team features)
// invites a member; the person accepts from the outbox e-mail in a second browser, is signed in, and
// sees only the sidebar their permissions allow; the owner changes their access, which their console
// follows without a reload, then removes them, which ends their session. The member changes their password on the way.
// A person with an account in another community joins with its password and switches communities
// from the header. axe reports nothing on the team page, its dialogs, the invitation pages, the
// community switcher and Change password.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { gatewayCall } from '../lib/api.ts';
import { axeViolations } from '../lib/axe.ts';
import { launch, newSession, signIn } from '../lib/browser.ts';
import { mailTo } from '../lib/outbox.ts';
import { startTestSystem } from '../lib/system.ts';

let system: Awaited<ReturnType<typeof startTestSystem>>;
let browser: Browser;
const found: string[] = [];

before(async () => {
  system = await startTestSystem();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await system?.stop();
});

async function check(page: Page, where: string): Promise<void> {
  found.push(...(await axeViolations(page, where)));
}

/** The sidebar's links, once it shows the Templates link every role here has. */
async function sidebarLinks(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Templates', exact: true }).waitFor();
  return (await nav.getByRole('link').allTextContents()).map((t) => t.trim());
}

describe('team', () => {
  test('invite, accept from the e-mail, see what the role allows; access changes and removal reach the member', async () => {
    const owner = await newSession(browser, system.urls.shell);
    await signIn(owner.page, 'owner@lab.test', 'lab-pass-2026');
    await owner.page.goto('/account/users');
    await owner.page.getByRole('heading', { name: 'Manage Users', level: 1 }).waitFor();
    await owner.page.getByRole('cell', { name: 'owner@lab.test' }).waitFor();
    await check(owner.page, 'team page');

    await owner.page.getByRole('button', { name: 'Invite member' }).click();
    const invite = owner.page.getByRole('dialog', { name: 'Invite member' });
    await invite.waitFor();
    await check(owner.page, 'invite dialog');
    await invite.getByLabel('E-mail').fill('newbie@example.com');
    await invite.getByRole('radio', { name: /Member/ }).check();
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await invite.waitFor({ state: 'detached' });
    await owner.page.getByRole('cell', { name: 'newbie@example.com' }).first().waitFor();

    const mail = await mailTo(system.dataDir, 'newbie@example.com', /^Join Lab Rats/);
    const link = /http\S+\/invitation\/\S+/.exec(mail)?.[0];
    assert.ok(link, 'the e-mail carries the invitation link');
    const member = await newSession(browser, system.urls.shell);
    await member.page.goto(new URL(link).pathname);
    await member.page.getByText('Lena Lab invited you to join Lab Rats.').waitFor();
    await check(member.page, 'invitation page');
    await member.page.getByLabel('First name').fill('Nina');
    await member.page.getByLabel('Last name').fill('Newbie');
    await member.page.getByLabel('Password', { exact: true }).fill('newbie-pass-2026');
    await member.page.getByLabel('Repeat the password').fill('newbie-pass-2026');
    await member.page.getByRole('button', { name: 'Join Lab Rats' }).click();
    await member.page.waitForURL((url) => url.pathname === '/');
    await member.page.getByRole('heading', { name: /Welcome/ }).waitFor();
    const links = await sidebarLinks(member.page);
    for (const allowed of ['Contacts', 'Lists', 'E-mails', 'Templates'])
      assert.ok(links.includes(allowed), links.join(', '));
    for (const hidden of ['Automations', 'Custom Attributes', 'Smart Contracts', 'Widgets']) {
      assert.ok(!links.includes(hidden), `${hidden} is not in ${links.join(', ')}`);
    }

    // The member works on the contacts while the owner changes their access.
    await member.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click();
    await member.page.getByRole('heading', { name: 'Contacts', level: 1 }).waitFor();

    // The owner sees the member, and changes them to custom: templates only.
    await owner.page.reload();
    await owner.page.getByRole('cell', { name: 'newbie@example.com' }).first().waitFor();
    await owner.page.getByRole('button', { name: 'Edit access of Nina Newbie' }).click();
    const edit = owner.page.getByRole('dialog', { name: 'Edit access of Nina Newbie' });
    await edit.waitFor();
    await check(owner.page, 'edit access dialog');
    await edit.getByRole('radio', { name: /Custom/ }).check();
    await edit.getByRole('checkbox', { name: 'Contacts and lists', exact: true }).uncheck();
    await edit.getByRole('checkbox', { name: 'E-mails', exact: true }).uncheck();
    await edit.getByRole('button', { name: 'Save access' }).click();
    await edit.waitFor({ state: 'detached' });

    // Spec section 4: the member's next request carries the new access version, so their console
    // refreshes its permissions without a reload: the page they may no longer open leaves for /, and
    // contacts are gone from the sidebar.
    await member.page.evaluate(() => {
      (window as { __noReload?: boolean }).__noReload = true;
    });
    await member.page.getByLabel('Search contacts').fill('someone');
    await member.page.waitForURL((url) => url.pathname === '/');
    await member.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Contacts' })
      .waitFor({ state: 'detached' });
    assert.equal(await member.page.evaluate(() => (window as { __noReload?: boolean }).__noReload), true, 'no reload');
    await member.page.goto('/engagement/templates');
    await member.page.getByRole('heading', { name: 'Templates', level: 1 }).waitFor();
    const after = await sidebarLinks(member.page);
    assert.ok(after.includes('Templates'), after.join(', '));
    assert.ok(!after.includes('Contacts'), after.join(', '));

    // Change password: the member's own, with the rule and a strength meter.
    await member.page.goto('/account/change-password');
    await member.page.getByLabel('Current password').fill('newbie-pass-2026');
    await member.page.getByLabel('New password', { exact: true }).fill('a much longer newbie pass 2026');
    await member.page.getByLabel('Repeat the new password').fill('a much longer newbie pass 2026');
    await check(member.page, 'change password');
    await member.page.getByRole('button', { name: /Change password/ }).click();
    await member.page.getByText('Your password has been changed. Other sessions have been signed out.').waitFor();
    await member.page.goto('/engagement/templates');
    await member.page.getByRole('heading', { name: 'Templates', level: 1 }).waitFor();

    // Removal ends the member's session: their next page sends them to sign in.
    await owner.page.getByRole('button', { name: 'Remove Nina Newbie' }).click();
    const remove = owner.page.getByRole('dialog', { name: 'Remove Nina Newbie?' });
    await remove.waitFor();
    await check(owner.page, 'remove dialog');
    await remove.getByRole('button', { name: 'Confirm' }).click();
    await remove.waitFor({ state: 'detached' });
    await member.page.goto('/engagement/templates');
    await member.page.waitForURL((url) => url.pathname === '/login');

    // The owner's Activity tab says who did what to the team, newest first.
    await owner.page.goto('/account/users');
    await owner.page.getByRole('navigation', { name: 'Team' }).getByRole('link', { name: 'Activity' }).click();
    const activity = owner.page.getByRole('table', { name: 'Team activity' });
    await activity.getByText('Removed newbie@example.com from the team').waitFor();
    for (const what of [
      'Changed the password of newbie@example.com',
      'Changed the access of newbie@example.com to Custom',
      'Invited newbie@example.com as Member',
    ]) {
      await activity.getByText(what).waitFor();
    }
    await check(owner.page, 'team activity');

    await owner.context.close();
    await member.context.close();
    assert.deepEqual(found, [], `axe found ${found.length} problems:\n${found.join('\n')}`);
  });

  test('the account pages of a GROW UP owner: profile, general settings, custom domains and its dialog, with axe', async () => {
    const { page, context } = await newSession(browser, system.urls.shell);
    await signIn(page, 'owner@lab.test', 'lab-pass-2026');
    const problems: string[] = [];
    for (const [path, title] of [
      ['/account/profile', 'Your Profile'],
      ['/account/general-settings', 'General Settings'],
      ['/account/custom-domains', 'Custom Domains'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { name: title, level: 1 }).waitFor();
      // The sidebar stays on a full load of a remote's page (desktop width).
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Templates' }).waitFor();
      problems.push(...(await axeViolations(page, path)));
    }
    await page.getByRole('button', { name: 'Add domain' }).click();
    const add = page.getByRole('dialog', { name: 'Add domain' });
    await add.waitFor();
    problems.push(...(await axeViolations(page, 'add domain dialog')));
    await page.keyboard.press('Escape');
    await add.waitFor({ state: 'detached' });
    await context.close();
    assert.deepEqual(problems, [], `axe found ${problems.length} problems:\n${problems.join('\n')}`);
  });
  test('a person in two communities: joins with the password they have, then switches from the header', async () => {
    const owner = await newSession(browser, system.urls.shell);
    await signIn(owner.page, 'owner@lab.test', 'lab-pass-2026');
    await gatewayCall(owner.page, system.urls.gateway, 'POST', '/v1/invitations', {
      email: 'staff@acme.test',
      preset: 'member',
    });
    const mail = await mailTo(system.dataDir, 'staff@acme.test', /^Join Lab Rats/);
    const link = /http\S+\/invitation\/\S+/.exec(mail)?.[0];
    assert.ok(link, 'the e-mail carries the invitation link');

    const person = await newSession(browser, system.urls.shell);
    await person.page.goto(new URL(link).pathname);
    await person.page.getByText(/You already have an account with this address/).waitFor();
    await check(person.page, 'invitation page, account elsewhere');
    await person.page.getByLabel('Password', { exact: true }).fill('staff-pass-2026');
    await person.page.getByRole('button', { name: 'Join Lab Rats' }).click();
    await person.page.waitForURL((url) => url.pathname === '/');
    const switcher = person.page.getByRole('button', { name: 'Community: Lab Rats' });
    await switcher.waitFor();

    await switcher.click();
    await person.page.getByRole('menu').waitFor();
    await check(person.page, 'community switcher');
    await person.page.keyboard.press('Escape');
    await person.page.getByRole('menu').waitFor({ state: 'detached' });
    await switcher.click();
    await person.page.getByRole('menuitem', { name: 'Acme DAO' }).click();
    await person.page.getByRole('button', { name: 'Community: Acme DAO' }).waitFor();
    assert.equal(new URL(person.page.url()).pathname, '/');

    await owner.context.close();
    await person.context.close();
    assert.deepEqual(found, [], `axe found ${found.length} problems:\n${found.join('\n')}`);
  });
});
