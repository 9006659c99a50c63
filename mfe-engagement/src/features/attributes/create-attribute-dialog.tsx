import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TextField, notify, SELECT_CLASS } from '@console/shared/ui';
import { Dialog, FormFooter } from '@console/shared/overlays';
import { ATTRIBUTE_TYPES, type AttributeType } from '@console/shared/contracts';
import { ATTRIBUTES_KEY, createAttribute } from './api';
import { attributeKeyFromName, attributeKeyProblem } from './attribute-key';
import { ATTRIBUTE_TYPE_INFO } from './attribute-types';
import { formErrorsOf, type FormErrors } from '@console/shared/api';

const NO_ERRORS: FormErrors = { fields: {}, message: null };

function isAttributeType(value: string): value is AttributeType {
  return (ATTRIBUTE_TYPES as readonly string[]).includes(value);
}

/** Create a custom attribute: name, key (derived from the name until edited) and type. Mount anew per opening. */
export function CreateAttributeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const formId = useId();
  const typeId = useId();
  const [name, setName] = useState('');
  const [editedKey, setEditedKey] = useState<string | null>(null);
  const [type, setType] = useState<AttributeType>('text');
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const key = editedKey ?? attributeKeyFromName(name);

  const create = useMutation({
    mutationFn: createAttribute,
    onSuccess: async (attribute) => {
      await queryClient.invalidateQueries({ queryKey: ATTRIBUTES_KEY });
      notify.success(`Attribute "${attribute.name}" created.`);
      onClose();
    },
    onError: (error) => setErrors(formErrorsOf(error)),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const fields: Record<string, string> = {};
    if (name.trim() === '') fields.name = 'Enter a name.';
    const keyProblem = attributeKeyProblem(key);
    if (keyProblem) fields.key = keyProblem;
    setErrors({ fields, message: null });
    if (Object.keys(fields).length === 0) create.mutate({ name: name.trim(), key, type });
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Create attribute"
      dismissible={!create.isPending}
      size="md"
      footer={<FormFooter formId={formId} busy={create.isPending} submitLabel="Create attribute" onCancel={onClose} />}
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
          hint="How the attribute is shown in grids, filters and segments."
          autoComplete="off"
        />
        <TextField
          label="Key"
          value={key}
          maxLength={40}
          onChange={(event) => setEditedKey(event.target.value)}
          error={errors.fields.key}
          hint="Used by CSV imports and the API. It cannot change later."
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
        />
        <div>
          <label htmlFor={typeId} className="mb-1 block text-sm font-medium text-slate-800">
            Type
          </label>
          <select
            id={typeId}
            value={type}
            onChange={(event) => {
              if (isAttributeType(event.target.value)) setType(event.target.value);
            }}
            aria-describedby={`${typeId}-help`}
            aria-invalid={errors.fields.type ? true : undefined}
            className={SELECT_CLASS}
          >
            {ATTRIBUTE_TYPES.map((option) => (
              <option key={option} value={option}>
                {ATTRIBUTE_TYPE_INFO[option].label}
              </option>
            ))}
          </select>
          {errors.fields.type && <p className="mt-1 text-xs text-red-700">{errors.fields.type}</p>}
          <p id={`${typeId}-help`} className="mt-1 text-xs text-slate-500">
            {ATTRIBUTE_TYPE_INFO[type].help} The type cannot change later.
          </p>
        </div>
      </form>
    </Dialog>
  );
}
