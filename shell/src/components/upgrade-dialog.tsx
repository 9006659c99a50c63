import { useId, useState } from 'react';
import { Button } from '@console/shared/ui';
import { Dialog } from '@console/shared/overlays';
import { SafeHtml } from '@console/shared/html';

export const UPGRADE_TITLE = 'Unlock more features!';
export const UPGRADE_DEFAULT_HTML =
  '<p>This feature is not included in your current plan. Upgrade your plan to unlock it.</p>';

export interface UpgradeDialogProps {
  open: boolean;
  onClose: () => void;
  /** 'Upgrade Your Plan' pressed; the button is busy while a returned promise runs. The caller closes the dialog. */
  onUpgrade: () => unknown;
  /** HTML body (sanitised); defaults to a text about the missing feature. */
  html?: string;
}

/** Upgrade dialog of spec section 2: 'Unlock more features!', 'Upgrade Your Plan', 'Close Window'. */
export function UpgradeDialog({ open, onClose, onUpgrade, html = UPGRADE_DEFAULT_HTML }: UpgradeDialogProps) {
  const bodyId = useId();
  const [busy, setBusy] = useState(false);

  const upgrade = async () => {
    setBusy(true);
    try {
      await onUpgrade();
    } catch (error) {
      console.error('[console] upgrade failed', error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={UPGRADE_TITLE}
      descriptionId={bodyId}
      testId="upgrade-dialog"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Close Window
          </Button>
          <Button busy={busy} onClick={() => void upgrade()}>
            Upgrade Your Plan
          </Button>
        </>
      }
    >
      <SafeHtml id={bodyId} html={html} className="space-y-2 [&_a]:text-brand-700 [&_a]:underline" />
    </Dialog>
  );
}
