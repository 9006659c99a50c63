import { useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { splitFormErrors } from '@console/shared/api';
import type { SendingDomain } from '@console/shared/contracts';
import { Dialog, FormFooter } from '@console/shared/overlays';
import { TextField, notify } from '@console/shared/ui';
import { addDomain, invalidateDomains } from './api';

/** The longest domain name (RFC 1035: 253 characters), with room for a trailing dot and spaces. */
const DOMAIN_MAX_LENGTH = 260;

/**
 * Add domain: one name; the gateway checks it (public suffixes, IP addresses, duplicates) and answers
 * the records to publish. Its field errors show under the field. Mount with a key per opening.
 */
export function AddDomainDialog({
  open,
  onClose,
  onAdded,
}: {
  open: boolean;
  onClose: () => void;
  onAdded: (domain: SendingDomain) => void;
}) {
  const client = useQueryClient();
  const formId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [domain, setDomain] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [message, setMessage] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    if (!domain.trim()) {
      setError('Enter a domain.');
      inputRef.current?.focus();
      return;
    }
    setSending(true);
    setError(undefined);
    setMessage(null);
    try {
      const added = await addDomain(domain.trim());
      await invalidateDomains(client);
      notify.success(`${added.domain} was added. Publish its DNS records, then verify it.`);
      onAdded(added);
    } catch (failure) {
      const { fields, message } = splitFormErrors(failure, ['domain'], 'The domain could not be added.');
      setError(fields.domain);
      setMessage(message);
      inputRef.current?.focus();
    } finally {
      setSending(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Add domain"
      dismissible={!sending}
      initialFocus={inputRef}
      testId="add-domain-dialog"
      footer={<FormFooter formId={formId} busy={sending} submitLabel="Add domain" onCancel={onClose} />}
    >
      <form id={formId} noValidate className="space-y-4" onSubmit={(event) => void submit(event)}>
        <p className="text-slate-600">
          The domain your e-mails are sent from, such as example.com or mail.example.com. You publish a few DNS records
          next.
        </p>
        <TextField
          ref={inputRef}
          label="Domain"
          autoComplete="off"
          spellCheck={false}
          placeholder="mail.example.com"
          maxLength={DOMAIN_MAX_LENGTH}
          value={domain}
          error={error}
          readOnly={sending}
          onChange={(event) => {
            setDomain(event.target.value);
            if (error) setError(undefined);
          }}
        />
        {message && (
          <p role="alert" className="text-sm text-red-700">
            {message}
          </p>
        )}
      </form>
    </Dialog>
  );
}
