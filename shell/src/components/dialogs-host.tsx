import { lazy, Suspense, useState } from 'react';
import { ConfirmDialog, InfoDialog, UpgradeDialog, consoleStore, notify, useConsole } from '@console/shared';
import { startUpgrade } from '../upgrade';

/** The plan picker and its confirmation: loaded the first time plans are opened, not at start-up. */
const PlanChangeFlow = lazy(() => import('../billing/plan-change-flow').then((m) => ({ default: m.PlanChangeFlow })));

/** The dialogs any bundle can open through the shared store, hosted once by the shell. */
export function DialogsHost() {
  const upgrade = useConsole((s) => s.upgrade);
  const info = useConsole((s) => s.info);
  const confirm = useConsole((s) => s.confirm);
  const store = consoleStore.getState();
  const plansOpen = useConsole((s) => s.plans.open);
  const [plansLoaded, setPlansLoaded] = useState(plansOpen);
  if (plansOpen && !plansLoaded) setPlansLoaded(true);

  return (
    <>
      <UpgradeDialog
        open={upgrade.open}
        onClose={store.closeUpgrade}
        onUpgrade={() =>
          startUpgrade().catch((error: unknown) =>
            notify.error(error instanceof Error ? error.message : 'Could not open the plans.'),
          )
        }
      />
      <InfoDialog
        open={info !== null}
        title={info?.title ?? ''}
        html={info?.html ?? ''}
        mascot={info?.mascot}
        onClose={store.closeInfo}
      />
      <ConfirmDialog
        open={confirm !== null}
        title={confirm?.title ?? ''}
        html={confirm?.html ?? ''}
        confirmText={confirm?.confirmText}
        cancelText={confirm?.cancelText ?? undefined}
        showCancel={confirm?.cancelText !== null}
        onConfirm={async () => {
          await confirm?.onConfirm();
        }}
        onClose={store.closeConfirm}
      />
      {plansLoaded && (
        <Suspense fallback={null}>
          <PlanChangeFlow />
        </Suspense>
      )}
    </>
  );
}
