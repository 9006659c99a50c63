import { useId, useRef, useState, type FormEvent } from 'react';
import { formErrorsOf } from '@console/shared/api';
import { Button, TextArea, notify } from '@console/shared/ui';
import { Dialog } from '@console/shared/overlays';
import { CAMPAIGN_LIMITS } from '@console/shared/contracts';
import { sendTestCampaign } from '../api';
import { parseRecipients } from '../../templates/template-rules';

/**
 * Send the e-mail as it stands to up to five addresses (POST …/test), merge tags filled in for the
 * contact chosen for the preview (or sample values). Mount with a key per opening.
 */
export function CampaignTestDialog({
  campaignId,
  contactId,
  open,
  onClose,
  ensureSaved,
}: {
  campaignId: string;
  contactId: string | null;
  open: boolean;
  onClose: () => void;
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
        setError('The latest changes are not saved yet. Fix what compose reports, then send again.');
        return;
      }
      const sent = await sendTestCampaign(campaignId, parsed.recipients, contactId);
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
      <form id={formId} noValidate onSubmit={(event) => void send(event)}>
        <TextArea
          ref={fieldRef}
          label="Send to"
          hint={`Up to ${CAMPAIGN_LIMITS.testRecipients} addresses, separated by commas or new lines.`}
          rows={3}
          maxLength={CAMPAIGN_LIMITS.testRecipients * (CAMPAIGN_LIMITS.address + 2)}
          value={input}
          error={error}
          onChange={(event) => setInput(event.target.value)}
        />
      </form>
    </Dialog>
  );
}
