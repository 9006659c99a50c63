import { useId, useRef, useState, type ReactNode } from 'react';
import { Button, type ButtonVariant } from '@console/shared/ui';
import { Dialog } from './dialog';
import { SafeHtml } from '@console/shared/html';
import { useClosingSnapshot } from './use-closing-snapshot';

export interface ConfirmDialogProps {
  open: boolean;
  /** Called on Cancel, Escape or backdrop (never while the confirm callback runs). */
  onClose: () => void;
  title: string;
  /** HTML body; sanitised. */
  html?: string;
  children?: ReactNode;
  /**
   * Runs when Confirm is pressed; the button is busy until it settles. The dialog does not close
   * itself: the callback (or the caller) closes it. A rejection clears the busy state and goes to
   * `onError` (logged when absent): the caller decides what to show.
   */
  onConfirm: () => Promise<void> | void;
  onError?: (error: unknown) => void;
  confirmVariant?: Extract<ButtonVariant, 'primary' | 'danger'>;
  /** Text of the Cancel button; giving it shows the button. */
  cancelText?: string;
  /** Show the Cancel button (default: shown when `cancelText` is given). */
  showCancel?: boolean;
}

/** The confirm button's text, the same in every confirm dialog (spec section 2). */
export const CONFIRM_TEXT = 'Confirm';

/**
 * Confirm dialog of spec section 2: title, HTML body, Confirm (busy while its callback runs), optional
 * Cancel. What is confirmed is said in the title and the body; the button always reads 'Confirm'.
 */
export function ConfirmDialog({
  open,
  onClose,
  children,
  onConfirm,
  onError,
  confirmVariant = 'primary',
  ...texts
}: ConfirmDialogProps) {
  const bodyId = useId();
  const { title, html, cancelText, showCancel } = useClosingSnapshot(open, texts);
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const withCancel = showCancel ?? cancelText !== undefined;

  const confirm = async () => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    try {
      await onConfirm();
    } catch (error) {
      if (onError) onError(error);
      else console.error('[console] confirm callback failed', error);
    } finally {
      running.current = false;
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      dismissible={!busy}
      descriptionId={html ? bodyId : undefined}
      testId="confirm-dialog"
      footer={
        <>
          {withCancel && (
            <Button variant="secondary" onClick={onClose} disabled={busy}>
              {cancelText ?? 'Cancel'}
            </Button>
          )}
          <Button variant={confirmVariant} busy={busy} onClick={() => void confirm()}>
            {CONFIRM_TEXT}
          </Button>
        </>
      }
    >
      {html ? <SafeHtml id={bodyId} html={html} className="space-y-2 [&_a]:text-brand-700 [&_a]:underline" /> : null}
      {children}
    </Dialog>
  );
}
