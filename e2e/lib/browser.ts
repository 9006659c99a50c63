import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

export interface Session {
  context: BrowserContext;
  page: Page;
  requests: string[];
}

export async function newSession(browser: Browser, baseURL: string): Promise<Session> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.setDefaultTimeout(15_000);
  return { context, page, requests };
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByRole('heading', { name: /Welcome/ }).waitFor();
}

export async function cookieNames(context: BrowserContext): Promise<string[]> {
  return (await context.cookies()).map((c) => c.name).sort();
}

/**
 * The natural width of the image `img` points at, once the browser has loaded it (0 when it failed):
 * an attached element is not a loaded image.
 */
export function loadedWidth(img: Locator): Promise<number> {
  return img.evaluate((el: HTMLImageElement) =>
    el.complete
      ? el.naturalWidth
      : new Promise<number>((resolve) => {
          el.addEventListener('load', () => resolve(el.naturalWidth));
          el.addEventListener('error', () => resolve(0));
        }),
  );
}
