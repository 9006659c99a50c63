import { useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@console/shared/router';
import { formErrorsOf } from '@console/shared/api';
import { TextField } from '@console/shared/ui';
import { Dialog, FormFooter } from '@console/shared/overlays';
import { CAMPAIGN_LIMITS } from '@console/shared/contracts';
import { createCampaign, invalidateCampaigns } from './api';
import { composePath } from './paths';

/** Name a new e-mail (a draft, POST /v1/campaigns), then compose it. Mount with a key per opening. */
export function CreateEmailDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const formId = useId();
  const nameRef = useRef<HTMLInputElement>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    if (!name.trim()) {
      setError('Name the e-mail.');
      nameRef.current?.focus();
      return;
    }
    setSaving(true);
    setError(null);
    try {
      const created = await createCampaign({ name: name.trim() });
      await invalidateCampaigns(client);
      onClose();
      void navigate(composePath(created._id));
    } catch (failure) {
      const found = formErrorsOf(failure, 'The e-mail could not be created. Please try again.');
      setError(found.fields.name ?? found.message);
      setSaving(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Create e-mail"
      dismissible={!saving}
      initialFocus={nameRef}
      footer={<FormFooter formId={formId} busy={saving} submitLabel="Create and compose" onCancel={onClose} />}
    >
      <form id={formId} noValidate onSubmit={(event) => void save(event)}>
        <TextField
          ref={nameRef}
          label="Name"
          hint="Only your team sees it."
          value={name}
          maxLength={CAMPAIGN_LIMITS.name}
          error={error}
          onChange={(event) => setName(event.target.value)}
        />
      </form>
    </Dialog>
  );
}
