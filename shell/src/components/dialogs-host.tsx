import { lazy, Suspense, useState } from 'react';
import { useConsole } from '@console/shared/session';

/**
 * The dialogs load the first time one is opened, not at start-up: the store dialogs bring the overlays
 * entry (floating-ui, DOMPurify), the plan picker its queries. Once loaded they stay mounted, so their
 * closing transitions run.
 */
const StoreDialogs = lazy(() => import('./store-dialogs').then((m) => ({ default: m.StoreDialogs })));
const PlanChangeFlow = lazy(async () => {
  const [{ PlanChangeFlow: Flow }, { QueryProvider }] = await Promise.all([
    import('../billing/plan-change-flow'),
    import('@console/shared/query'),
  ]);
  return {
    default: () => (
      <QueryProvider>
        <Flow />
      </QueryProvider>
    ),
  };
});

/** Becomes true the first time `open` is true, and stays true. */
function useOnceOpened(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}

/** The dialogs any bundle can open through the shared store, hosted once by the shell. */
export function DialogsHost() {
  const anyStoreDialog = useConsole((s) => s.upgrade.open || s.info !== null || s.confirm !== null);
  const plansOpen = useConsole((s) => s.plans.open);
  const storeDialogs = useOnceOpened(anyStoreDialog);
  const plans = useOnceOpened(plansOpen);
  return (
    <>
      {storeDialogs && (
        <Suspense fallback={null}>
          <StoreDialogs />
        </Suspense>
      )}
      {plans && (
        <Suspense fallback={null}>
          <PlanChangeFlow />
        </Suspense>
      )}
    </>
  );
}
