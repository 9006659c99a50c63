import { useId, useRef, useState, type FormEvent } from 'react';
import { formErrorsOf } from '@console/shared/api';
import { Button, TextArea, notify } from '@console/shared/ui';
import { Dialog } from '@console/shared/overlays';
import { TEMPLATE_LIMITS } from '@console/shared/contracts';
import { sendTestTemplate } from '../api';
import { parseRecipients } from '../template-rules';
import type { PreviewContact } from './preview-contact';

/**
 * Send the saved template to up to five addresses through the gateway's mailer, merge tags filled in
 * for the contact chosen in Preview (or sample values). Mount with a key per opening.
 */
export function TestSendDialog({
  templateId,
  open,
  onClose,
  contact,
  ensureSaved,
}: {
  templateId: string;
  open: boolean;
  onClose: () => void;
  contact: PreviewContact | null;
  ensureSaved: () => Promise<boolean>;
}) {
  const formId = useId();
  const fieldRef = useRef<HTMLTextAreaElement>(null);
  const [input, setInput] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    const parsed = parseRecipients(input);
    if (!parsed.ok) {
      setError(parsed.error);
      fieldRef.current?.focus();
      return;
    }
    setSending(true);
    setError(null);
    try {
      if (!(await ensureSaved())) {
        setError('The latest changes are not saved yet: fix what the designer reports, then send again.');
        return;
      }
      const sent = await sendTestTemplate(templateId, parsed.recipients, contact?.id ?? null);
      notify.success(sent.message || 'Test sent.');
      onClose();
    } catch (failure) {
      const found = formErrorsOf(failure, 'The test could not be sent. Please try again.');
      setError(found.message ?? Object.values(found.fields)[0] ?? null);
    } finally {
      setSending(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Send a test"
      dismissible={!sending}
      initialFocus={fieldRef}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={sending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} busy={sending}>
            Send test
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={(event) => void send(event)} className="space-y-3">
        <TextArea
          ref={fieldRef}
          label="Send to"
          rows={3}
          maxLength={1000}
          value={input}
          error={error}
          hint={`Up to ${TEMPLATE_LIMITS.testRecipients} addresses, separated by commas or new lines.`}
          onChange={(event) => setInput(event.target.value)}
        />
        <p className="text-sm text-slate-600">
          Merge tags are filled in with {contact ? `the values of ${contact.label}` : 'sample values'} (choose a contact
          in Preview).
        </p>
      </form>
    </Dialog>
  );
}
