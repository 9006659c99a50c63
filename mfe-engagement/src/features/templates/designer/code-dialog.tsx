import { useId, useState } from 'react';
import { Button, TextArea } from '@console/shared/ui';
import { Dialog } from '@console/shared/overlays';
import { TEMPLATE_LIMITS } from '@console/shared/contracts';

/**
 * The design's MJML, as saved. It can be edited here and applied to the designer (then saved like
 * any change; MJML the server refuses is reported in the designer and never replaces the last saved
 * version). Mount with a key per opening.
 */
export function CodeDialog({
  open,
  onClose,
  mjml,
  onApply,
}: {
  open: boolean;
  onClose: () => void;
  mjml: string;
  onApply: (mjml: string) => void;
}) {
  const formId = useId();
  const [code, setCode] = useState(mjml);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="MJML code"
      size="xl"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Close Window
          </Button>
          <Button type="submit" form={formId} disabled={code === mjml}>
            Apply changes
          </Button>
        </>
      }
    >
      <form
        id={formId}
        onSubmit={(event) => {
          event.preventDefault();
          onApply(code);
          onClose();
        }}
      >
        <TextArea
          label="MJML"
          rows={20}
          spellCheck={false}
          maxLength={TEMPLATE_LIMITS.mjmlBytes}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          className="font-mono text-xs"
        />
      </form>
    </Dialog>
  );
}
