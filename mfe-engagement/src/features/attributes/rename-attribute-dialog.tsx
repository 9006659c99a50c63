import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TextField, notify } from '@console/shared/ui';
import { Dialog, FormFooter } from '@console/shared/overlays';
import type { CustomAttribute } from '@console/shared/contracts';
import { ATTRIBUTES_KEY, renameAttribute } from './api';
import { ATTRIBUTE_TYPE_INFO } from './attribute-types';
import { formErrorsOf, type FormErrors } from '@console/shared/api';

/** Rename an attribute; its key and type are shown read-only. Mount anew per attribute. */
export function RenameAttributeDialog({
  attribute,
  open,
  onClose,
}: {
  attribute: CustomAttribute;
  open: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const formId = useId();
  const [name, setName] = useState(attribute.name);
  const [errors, setErrors] = useState<FormErrors>({ fields: {}, message: null });

  const rename = useMutation({
    mutationFn: (next: string) => renameAttribute(attribute._id, next),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ATTRIBUTES_KEY });
      notify.success('Attribute renamed.');
      onClose();
    },
    onError: (error) => setErrors(formErrorsOf(error)),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') {
      setErrors({ fields: { name: 'Enter a name.' }, message: null });
      return;
    }
    rename.mutate(name.trim());
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Rename attribute"
      dismissible={!rename.isPending}
      footer={<FormFooter formId={formId} busy={rename.isPending} submitLabel="Save" onCancel={onClose} />}
    >
      <form id={formId} noValidate onSubmit={submit} className="space-y-4">
        {errors.message && (
          <p role="alert" className="rounded-control bg-red-50 p-3 text-sm text-red-700">
            {errors.message}
          </p>
        )}
        <TextField
          label="Name"
          value={name}
          maxLength={60}
          onChange={(event) => setName(event.target.value)}
          error={errors.fields.name}
          autoComplete="off"
        />
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="font-medium text-slate-800">Key</dt>
          <dd className="font-mono text-slate-700">{attribute.key}</dd>
          <dt className="font-medium text-slate-800">Type</dt>
          <dd className="text-slate-700">{ATTRIBUTE_TYPE_INFO[attribute.type].label}</dd>
        </dl>
        <p className="text-xs text-slate-500">
          The key and the type cannot change: stored values, CSV mappings and API calls depend on them.
        </p>
      </form>
    </Dialog>
  );
}
