import type { Page } from 'playwright-core';

/**
 * A call to the gateway (`gateway`: its base URL) with the signed-in page's token, made from the page as
 * the console makes it; throws with the status and body on an error answer.
 */
export async function gatewayCall<T>(page: Page, gateway: string, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ({ gateway, method, path, body }) => {
      const token = document.cookie.match(/(?:^|; )token=([^;]+)/)?.[1] ?? '';
      const response = await fetch(`${gateway}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
      return (text ? JSON.parse(text) : null) as T;
    },
    { gateway, method, path, body },
  );
}
