import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launch, newSession, signIn } from '../lib/browser.ts';
import { startTestSystem } from '../lib/system.ts';

// Redeploying one area: change a remote's source, rebuild that remote alone, restart only its
// server. The shell is neither rebuilt nor restarted, and shows the new version.
const root = path.resolve(import.meta.dirname, '..', '..');
let system: Awaited<ReturnType<typeof startTestSystem>>;
let browser: Browser;
let work: string;

before(async () => {
  system = await startTestSystem();
  browser = await launch();
  // A second checkout of mfe-onboarding with one changed line (what a new commit would be).
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'console-redeploy-'));
  const copy = path.join(work, 'mfe-onboarding');
  fs.cpSync(path.join(root, 'mfe-onboarding'), copy, {
    recursive: true,
    filter: (src) => !/[/\\](node_modules|dist)$/.test(src),
  });
  fs.symlinkSync(path.join(root, 'mfe-onboarding', 'node_modules'), path.join(copy, 'node_modules'));
  const page = path.join(copy, 'src', 'pages', 'sso-page.tsx');
  fs.writeFileSync(page, fs.readFileSync(page, 'utf8').replace('>SSO<', '>SSO (redeployed)<'));
  execFileSync(path.join(copy, 'node_modules', '.bin', 'webpack'), ['--mode', 'production'], {
    cwd: copy,
    stdio: 'ignore',
  });
});
after(async () => {
  await browser?.close();
  await system?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test('a rebuilt remote shows in the running shell without rebuilding the shell', async () => {
  const shellMain = () => fs.readFileSync(path.join(root, 'shell', 'dist', 'main.js'));
  const before = shellMain();
  const { page, context } = await newSession(browser, system.urls.shell);
  await signIn(page, 'owner@acme.test', 'owner-pass-2026');
  await page.goto('/onboarding/sso');
  await page.getByRole('heading', { name: 'SSO', exact: true }).waitFor();

  await system.restart('mfe-onboarding', { MFE_ONBOARDING_DIST: path.join(work, 'mfe-onboarding', 'dist') });
  await page.reload();
  await page.getByRole('heading', { name: 'SSO (redeployed)' }).waitFor();
  assert.ok(shellMain().equals(before), 'the shell build is untouched');
  assert.ok(system.procs.get('shell')?.exitCode === null, 'the shell server kept running');
  await context.close();
});
