import { useEffect } from 'react';
import { runtimeConfig, useConsole } from '@console/shared';

let loaded = false;

/** Spec section 1: the customer-support widget loads once after the user is known, if configured. */
export function useSupportWidget(): void {
  const known = useConsole((s) => s.user !== null);
  useEffect(() => {
    const url = runtimeConfig().supportWidgetUrl;
    if (!known || !url || loaded) return;
    loaded = true;
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.dataset.consoleSupport = 'true';
    document.body.appendChild(script);
  }, [known]);
}
