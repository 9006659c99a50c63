import { useId, type ReactNode } from 'react';
import { Button } from '@console/shared/ui';
import { Dialog } from '@console/shared/overlays';
import { SafeHtml } from '@console/shared/html';
import { useClosingSnapshot } from '@console/shared/overlays';

export interface InfoDialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  /** HTML body; sanitised. */
  html?: string;
  /** Optional mascot image URL shown above the title. */
  mascot?: string;
  mascotAlt?: string;
  closeText?: string;
  /** Extra content under the body. */
  children?: ReactNode;
}

/** Information dialog of spec section 2: title, HTML body, optional mascot image, 'Close Window'. */
export function InfoDialog({ open, onClose, children, ...texts }: InfoDialogProps) {
  const bodyId = useId();
  const { title, html, mascot, mascotAlt = '', closeText = 'Close Window' } = useClosingSnapshot(open, texts);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      media={mascot ? <img src={mascot} alt={mascotAlt} className="mx-auto mb-4 block h-24 w-auto" /> : undefined}
      descriptionId={html ? bodyId : undefined}
      testId="info-dialog"
      footer={
        <Button variant="secondary" onClick={onClose}>
          {closeText}
        </Button>
      }
    >
      {html ? <SafeHtml id={bodyId} html={html} className="space-y-2 [&_a]:text-brand-700 [&_a]:underline" /> : null}
      {children}
    </Dialog>
  );
}
