import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { formErrorsOf } from '@console/shared/api';
import { TextArea, notify } from '@console/shared/ui';
import { Dialog, FormFooter } from '@console/shared/overlays';
import { parseRecipients } from '../template-rules';

/**
 * "Send a test" (spec section 2: templates and e-mails): up to a few addresses, sent as the design or
 * e-mail stands once its pending changes are saved. One dialog for the designer and for compose's
 * review; each says what it sends through `send`. Mount with a key per opening.
 */
export function TestSendDialog({
  open,
  onClose,
  ensureSaved,
  unsavedMessage,
  send,
  maxRecipients,
  maxLength,
  note,
}: {
  open: boolean;
  onClose: () => void;
  /** Saves what is pending; false when it could not be saved. */
  ensureSaved: () => Promise<boolean>;
  /** Shown when the pending changes could not be saved. */
  unsavedMessage: string;
  /** Sends the test to these addresses; the answer's message is the success toast. */
  send: (recipients: string[]) => Promise<{ message?: string }>;
  maxRecipients: number;
  /** The field's length limit (characters). */
  maxLength: number;
  /** What the merge tags are filled in with. */
  note?: ReactNode;
}) {
  const formId = useId();
  const fieldRef = useRef<HTMLTextAreaElement>(null);
  const [input, setInput] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
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
        setError(unsavedMessage);
        return;
      }
      const sent = await send(parsed.recipients);
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
      footer={<FormFooter formId={formId} busy={sending} submitLabel="Send test" onCancel={onClose} />}
    >
      <form id={formId} noValidate onSubmit={(event) => void submit(event)} className="space-y-3">
        <TextArea
          ref={fieldRef}
          label="Send to"
          rows={3}
          maxLength={maxLength}
          value={input}
          error={error}
          hint={`Up to ${maxRecipients} addresses, separated by commas or new lines.`}
          onChange={(event) => setInput(event.target.value)}
        />
        {note}
      </form>
    </Dialog>
  );
}
