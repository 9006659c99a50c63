import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** WCAG 2.0, 2.1 and 2.2, levels A and AA. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Runs axe on the page as it is now and answers each violation as one line: where, rule, element,
 * what is wrong. `exclude`: selectors left out of the scan.
 */
export async function axeViolations(
  page: Page,
  where: string,
  exclude: readonly string[] = [],
  { idle = true }: { idle?: boolean } = {},
): Promise<string[]> {
  // The designer's canvas frame (written by GrapesJS into an about:blank frame) reaches Playwright's
  // networkidle late or not at all: its checks wait for what they need instead.
  if (idle) await page.waitForLoadState('networkidle');
  // Let enter transitions (dialogs 300 ms) finish so colours are measured at rest.
  await page.waitForTimeout(350);
  // Floating UI's focus guards are sentinels, not content: aria-hidden so they are never announced,
  // and focusing one moves focus at once into or out of the open menu or panel (its focus trap and
  // portal tab order). axe's aria-hidden-focus rule cannot know that, so they are left out of the scan.
  let axe = new AxeBuilder({ page }).withTags(TAGS).exclude('[data-floating-ui-focus-guard]');
  for (const selector of exclude) axe = axe.exclude(selector);
  const { violations } = await axe.analyze();
  return violations.flatMap((v) =>
    v.nodes.map(
      (node) =>
        `${where}: ${v.id} (${v.impact}) ${node.target.join(' ')} — ${node.failureSummary?.split('\n').slice(1).join(' ')}`,
    ),
  );
}
