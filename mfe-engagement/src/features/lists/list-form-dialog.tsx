import { useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@console/shared/api';
import { TextArea, TextField, notify } from '@console/shared/ui';
import { Dialog, FormFooter } from '@console/shared/overlays';
import type { List } from '@console/shared/contracts';
import { createList, invalidateLists, updateList } from './api';
import { parseListForm, sortListErrors, type ListFormErrors } from './list-form';

const SAVE_FAILED = 'The list could not be saved. Please try again.';
const NO_ERRORS: ListFormErrors = { fields: {}, other: [] };

/**
 * Create or edit a list (name, description). Save errors show under their fields (spec section 8);
 * mount with a key per opening for a fresh form.
 */
export function ListFormDialog({
  open,
  onClose,
  list,
  onSaved,
}: {
  open: boolean;
  onClose: () => void;
  /** The list to edit; null creates one. */
  list: List | null;
  onSaved?: (list: List) => void;
}) {
  const client = useQueryClient();
  const formId = useId();
  const nameRef = useRef<HTMLInputElement>(null);
  const [name, setName] = useState(list?.name ?? '');
  const [description, setDescription] = useState(list?.description ?? '');
  const [errors, setErrors] = useState<ListFormErrors>(NO_ERRORS);
  const [saving, setSaving] = useState(false);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const parsed = parseListForm({ name, description });
    if (!parsed.ok) {
      setErrors(sortListErrors(parsed.errors));
      return;
    }
    setSaving(true);
    setErrors(NO_ERRORS);
    try {
      const saved = list ? await updateList(list._id, parsed.input) : await createList(parsed.input);
      notify.success(list ? 'List saved.' : 'List created.');
      onClose();
      onSaved?.(saved);
      await invalidateLists(client);
    } catch (error) {
      if (error instanceof ApiError) {
        const sorted = sortListErrors(error.fieldErrors());
        const named = Object.keys(sorted.fields).length > 0 || sorted.other.length > 0;
        setErrors(named ? sorted : { fields: {}, other: [error.body.message || SAVE_FAILED] });
      } else {
        setErrors({ fields: {}, other: [SAVE_FAILED] });
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={list ? 'Edit list' : 'Create list'}
      dismissible={!saving}
      initialFocus={nameRef}
      footer={
        <FormFooter formId={formId} busy={saving} submitLabel={list ? 'Save' : 'Create list'} onCancel={onClose} />
      }
    >
      <form id={formId} noValidate onSubmit={(event) => void save(event)} className="space-y-4">
        {errors.other.length > 0 && (
          <p role="alert" className="rounded-control bg-red-50 px-3 py-2 text-sm text-red-800">
            {errors.other.join(' ')}
          </p>
        )}
        <TextField
          ref={nameRef}
          label="Name"
          value={name}
          error={errors.fields.name}
          onChange={(event) => setName(event.target.value)}
        />
        <TextArea
          label="Description"
          rows={3}
          value={description}
          error={errors.fields.description}
          onChange={(event) => setDescription(event.target.value)}
        />
      </form>
    </Dialog>
  );
}
