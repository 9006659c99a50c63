import { useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { formErrorsOf } from '@console/shared/api';
import { TextField, notify } from '@console/shared/ui';
import { Dialog, FormFooter } from '@console/shared/overlays';
import { TEMPLATE_LIMITS, type TemplateSummary } from '@console/shared/contracts';
import { invalidateTemplates, updateTemplate } from './api';

/** Rename a template (PATCH with the name only: no new version). Mount with a key per opening. */
export function RenameTemplateDialog({
  template,
  open,
  onClose,
}: {
  template: TemplateSummary;
  open: boolean;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const formId = useId();
  const nameRef = useRef<HTMLInputElement>(null);
  const [name, setName] = useState(template.name);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    if (!name.trim()) {
      setError('Name the template.');
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await updateTemplate(template._id, { name: name.trim() });
      await invalidateTemplates(client);
      notify.success('Template renamed.');
      onClose();
    } catch (failure) {
      const errors = formErrorsOf(failure, 'The template could not be renamed. Please try again.');
      setError(errors.fields.name ?? errors.message ?? Object.values(errors.fields)[0] ?? null);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Rename template"
      dismissible={!saving}
      initialFocus={nameRef}
      footer={<FormFooter formId={formId} busy={saving} submitLabel="Rename" onCancel={onClose} />}
    >
      <form id={formId} noValidate onSubmit={(event) => void save(event)}>
        <TextField
          ref={nameRef}
          label="Name"
          value={name}
          maxLength={TEMPLATE_LIMITS.name}
          error={error}
          onChange={(event) => setName(event.target.value)}
        />
      </form>
    </Dialog>
  );
}
