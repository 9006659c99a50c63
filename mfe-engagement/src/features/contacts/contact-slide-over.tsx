import { useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@console/shared/api';
import { Button, TextField, notify, SelectField } from '@console/shared/ui';
import { ConfirmDialog, SlideOver } from '@console/shared/overlays';
import { CONTACT_STATUSES, type Contact, type CustomAttribute, type List } from '@console/shared/contracts';
import { createContact, deleteContact, invalidateAudience, updateContact } from './api';
import { AttributeInput } from './attribute-input';
import { STATUS_LABELS, contactLabel } from './contact-format';
import {
  ATTRIBUTE_ERROR_PREFIX,
  contactToForm,
  emptyContactForm,
  formToInput,
  sortFieldErrors,
  type ContactFormValues,
} from './contact-form';

const SAVE_FAILED = 'The contact could not be saved. Please try again.';

export interface ContactSlideOverProps {
  open: boolean;
  onClose: () => void;
  /** The contact to edit; null adds one. */
  contact: Contact | null;
  /** Lists a new contact starts in (a list's members grid: that list). */
  defaultLists?: readonly string[];
  lists: readonly List[];
  attributes: readonly CustomAttribute[];
}

/** Add or edit a contact in a slide-over; server field errors show under their fields. Mount with a key per opening. */
export function ContactSlideOver({
  open,
  onClose,
  contact,
  defaultLists = [],
  lists,
  attributes,
}: ContactSlideOverProps) {
  const client = useQueryClient();
  const formId = useId();
  const emailRef = useRef<HTMLInputElement>(null);
  const [values, setValues] = useState<ContactFormValues>(() =>
    contact ? contactToForm(contact) : emptyContactForm(defaultLists),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const set = <K extends keyof ContactFormValues>(field: K, value: ContactFormValues[K]) =>
    setValues((current) => ({ ...current, [field]: value }));
  const setAttribute = (key: string, value: string) =>
    setValues((current) => ({ ...current, attributes: { ...current.attributes, [key]: value } }));
  const toggleList = (id: string) =>
    set('lists', values.lists.includes(id) ? values.lists.filter((list) => list !== id) : [...values.lists, id]);

  const showError = (error: unknown) => {
    if (!(error instanceof ApiError)) {
      setFormError(SAVE_FAILED);
      return;
    }
    const sorted = sortFieldErrors(
      error.fieldErrors(),
      attributes.map((attribute) => attribute.key),
    );
    setErrors(sorted.fields);
    const hasFieldErrors = Object.keys(sorted.fields).length > 0;
    setFormError(
      sorted.other.length > 0 ? sorted.other.join(' ') : hasFieldErrors ? null : error.body.message || SAVE_FAILED,
    );
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    setErrors({});
    setFormError(null);
    try {
      const input = formToInput(values, attributes, contact ? 'edit' : 'create');
      if (contact) await updateContact(contact._id, input);
      else await createContact(input);
      notify.success(contact ? 'Contact saved.' : 'Contact added.');
      onClose();
      await invalidateAudience(client);
    } catch (error) {
      showError(error);
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    if (!contact) return;
    try {
      const result = await deleteContact(contact._id);
      notify.success(result.message || 'Contact deleted.');
      setConfirmDelete(false);
      onClose();
      await invalidateAudience(client);
    } catch (error) {
      setConfirmDelete(false);
      notify.error(
        error instanceof ApiError && error.body.message ? error.body.message : 'The contact could not be deleted.',
      );
    }
  };

  return (
    <SlideOver
      open={open}
      onClose={onClose}
      title={contact ? 'Edit contact' : 'Add contact'}
      description={contact ? contactLabel(contact) : 'An e-mail address, a wallet address, or both.'}
      dismissible={!saving && !confirmDelete}
      initialFocus={emailRef}
      testId="contact-slide-over"
      footer={
        <>
          {contact && (
            <Button variant="danger" className="mr-auto" disabled={saving} onClick={() => setConfirmDelete(true)}>
              Delete contact
            </Button>
          )}
          <Button variant="secondary" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" form={formId} busy={saving}>
            Save
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={(event) => void save(event)} className="space-y-4">
        {formError && (
          <p role="alert" className="rounded-control bg-red-50 px-3 py-2 text-sm text-red-800">
            {formError}
          </p>
        )}
        <TextField
          ref={emailRef}
          label="E-mail"
          type="email"
          autoComplete="off"
          maxLength={254}
          value={values.email}
          error={errors.email}
          onChange={(event) => set('email', event.target.value)}
        />
        <TextField
          label="Wallet address"
          maxLength={64}
          placeholder="0x…"
          spellCheck={false}
          autoComplete="off"
          value={values.wallet}
          error={errors.wallet}
          onChange={(event) => set('wallet', event.target.value)}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="First name"
            value={values.first_name}
            error={errors.first_name}
            onChange={(event) => set('first_name', event.target.value)}
          />
          <TextField
            label="Last name"
            value={values.last_name}
            error={errors.last_name}
            onChange={(event) => set('last_name', event.target.value)}
          />
        </div>
        <SelectField
          label="Status"
          value={values.status}
          error={errors.status}
          onChange={(event) => {
            const status = CONTACT_STATUSES.find((candidate) => candidate === event.target.value);
            if (status) set('status', status);
          }}
        >
          {CONTACT_STATUSES.map((status) => (
            <option key={status} value={status}>
              {STATUS_LABELS[status]}
            </option>
          ))}
        </SelectField>
        <fieldset aria-describedby={errors.lists ? `${formId}-lists-error` : undefined}>
          <legend className="mb-1 text-sm font-medium text-slate-800">Lists</legend>
          {lists.length === 0 ? (
            <p className="text-sm text-slate-500">No lists yet.</p>
          ) : (
            <div className="max-h-48 space-y-1 overflow-y-auto rounded-control p-2 ring-1 ring-slate-200 ring-inset">
              {lists.map((list) => (
                <label key={list._id} className="flex items-center gap-2 text-sm text-slate-700">
                  <input
                    type="checkbox"
                    checked={values.lists.includes(list._id)}
                    onChange={() => toggleList(list._id)}
                    className="h-4 w-4 accent-brand-600"
                  />
                  {list.name}
                </label>
              ))}
            </div>
          )}
          {errors.lists && (
            <p id={`${formId}-lists-error`} className="mt-1 text-xs text-red-700">
              {errors.lists}
            </p>
          )}
        </fieldset>
        {attributes.length > 0 && (
          <fieldset className="space-y-4">
            <legend className="mb-1 text-sm font-medium text-slate-800">Custom attributes</legend>
            {attributes.map((attribute) => (
              <AttributeInput
                key={attribute._id}
                attribute={attribute}
                value={values.attributes[attribute.key] ?? ''}
                error={errors[`${ATTRIBUTE_ERROR_PREFIX}${attribute.key}`]}
                onChange={setAttribute}
              />
            ))}
          </fieldset>
        )}
      </form>
      {contact && (
        <ConfirmDialog
          open={confirmDelete}
          onClose={() => setConfirmDelete(false)}
          title="Delete this contact?"
          confirmVariant="danger"
          cancelText="Cancel"
          onConfirm={remove}
        >
          <p>{contactLabel(contact)} is removed from your audience and from every list. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </SlideOver>
  );
}
