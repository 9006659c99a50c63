import { useId, useRef, useState } from 'react';
import { Button, TOAST_SHORT_DURATION, notify } from '@console/shared/ui';
import { Dialog } from '@console/shared/overlays';
import { widgetSnippet, type WidgetDetail } from '@console/shared/contracts';

export const CODE_COPIED = 'Code copied to clipboard.';
export const CODE_COPY_FAILED = 'Could not copy the code. It is selected: press Ctrl+C to copy it.';

/** 'Widget Code': the embed snippet as text, Copy Code and Close Window. Escape closes it. */
export function WidgetCodeDialog({ widget, onClose }: { widget: WidgetDetail | null; onClose: () => void }) {
  const codeId = useId();
  const codeRef = useRef<HTMLTextAreaElement>(null);
  // Keep showing the last widget while the dialog fades out.
  const [shown, setShown] = useState(widget);
  if (widget !== null && widget !== shown) setShown(widget);
  const snippet = shown ? widgetSnippet(shown) : '';

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet);
      notify.success(CODE_COPIED, { duration: TOAST_SHORT_DURATION });
    } catch {
      codeRef.current?.focus();
      codeRef.current?.select();
      notify.error(CODE_COPY_FAILED, { duration: TOAST_SHORT_DURATION });
    }
  };

  return (
    <Dialog
      open={widget !== null}
      onClose={onClose}
      title="Widget Code"
      size="lg"
      testId="widget-code-dialog"
      footer={
        <>
          <Button variant="link" className="mr-auto" onClick={() => void copy()}>
            Copy Code
          </Button>
          <Button variant="secondary" onClick={onClose}>
            Close Window
          </Button>
        </>
      }
    >
      <label htmlFor={codeId} className="mb-2 block text-slate-600">
        Paste this code into your website where the widget should appear.
      </label>
      <textarea
        ref={codeRef}
        id={codeId}
        readOnly
        rows={8}
        value={snippet}
        spellCheck={false}
        className="block w-full resize-none rounded-control bg-slate-900 p-3 font-mono text-xs text-slate-100 focus:ring-2 focus:ring-brand-600 focus:outline-none"
      />
    </Dialog>
  );
}
