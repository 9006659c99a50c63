import { ConfirmDialog } from '@console/shared/overlays';
import { InfoDialog } from './info-dialog';
import { UpgradeDialog } from './upgrade-dialog';
import { consoleStore, useConsole } from '@console/shared/session';
import { notify } from '@console/shared/ui';
import { startUpgrade } from '../upgrade';

/** The upgrade, information and confirmation dialogs any bundle opens through the shared store. */
export function StoreDialogs() {
  const upgrade = useConsole((s) => s.upgrade);
  const info = useConsole((s) => s.info);
  const confirm = useConsole((s) => s.confirm);
  const store = consoleStore.getState();
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
        cancelText={confirm?.cancelText ?? undefined}
        showCancel={confirm?.cancelText !== null}
        onConfirm={async () => {
          await confirm?.onConfirm();
        }}
        onClose={store.closeConfirm}
      />
    </>
  );
}
