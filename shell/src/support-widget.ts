import { useEffect } from 'react';
import { runtimeConfig } from '@console/shared/config';
import { useConsole } from '@console/shared/session';

/** Adds the support script unless the page already has it (idempotent: the DOM is the state). */
export function ensureSupportWidget(url: string, doc: Document = document): void {
  if (doc.querySelector('script[data-console-support]')) return;
  const script = doc.createElement('script');
  script.src = url;
  script.async = true;
  script.dataset.consoleSupport = 'true';
  doc.body.appendChild(script);
}

/** Spec section 1: the customer-support widget loads once after the user is known, if configured. */
export function useSupportWidget(): void {
  const known = useConsole((s) => s.user !== null);
  useEffect(() => {
    const url = runtimeConfig().supportWidgetUrl;
    if (known && url) ensureSupportWidget(url);
  }, [known]);
}
