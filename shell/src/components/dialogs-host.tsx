import { useNavigate } from 'react-router-dom';
import { ConfirmDialog, InfoDialog, UpgradeDialog, consoleStore, notify, useConsole } from '@console/shared';
import { startUpgrade } from '../upgrade';

/** The dialogs any bundle can open through the shared store, hosted once by the shell. */
export function DialogsHost() {
  const navigate = useNavigate();
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
          startUpgrade((path) => navigate(path)).catch((error: unknown) =>
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
    </>
  );
}
