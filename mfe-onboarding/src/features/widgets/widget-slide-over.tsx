import { useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { TOAST_SHORT_DURATION, TextField, notify, SelectField } from '@console/shared/ui';
import { FormFooter, SlideOver } from '@console/shared/overlays';
import { COMMUNITY_LIMITS, WIDGET_TYPES, type Widget, type WidgetDetail } from '@console/shared/contracts';
import { createWidget, invalidateWidgets, updateWidget, useWidgetTargets } from './api';
import {
  NO_WIDGET_ERRORS,
  parseWidgetForm,
  widgetErrorsOf,
  widgetFormValues,
  type WidgetFormErrors,
  type WidgetFormValues,
} from './widget-form';

export const WIDGET_SAVED = 'Widget saved.';

/**
 * Create or edit a widget (type, target list, website URL) in a slide-over. Saved: toast, close, and
 * hand the widget to `onSaved` (a new one opens the code dialog). Errors show under their fields; the
 * server's message is also an error toast. Mount with a key per opening for a fresh form.
 */
export function WidgetSlideOver({
  open,
  widget = null,
  onClose,
  onSaved,
}: {
  open: boolean;
  /** The widget to edit; none for a new one. */
  widget?: Widget | null;
  onClose: () => void;
  onSaved: (widget: WidgetDetail, created: boolean) => void;
}) {
  const client = useQueryClient();
  const formId = useId();
  const typeRef = useRef<HTMLSelectElement>(null);
  const targets = useWidgetTargets(open);
  const [values, setValues] = useState<WidgetFormValues>(() => widgetFormValues(widget));
  const [errors, setErrors] = useState<WidgetFormErrors>(NO_WIDGET_ERRORS);
  const [saving, setSaving] = useState(false);

  const set = <K extends keyof WidgetFormValues>(field: K, value: WidgetFormValues[K]) =>
    setValues((current) => ({ ...current, [field]: value }));

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const parsed = parseWidgetForm(values);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    setSaving(true);
    setErrors(NO_WIDGET_ERRORS);
    try {
      const saved = widget ? await updateWidget(widget._id, parsed.input) : await createWidget(parsed.input);
      notify.success(WIDGET_SAVED, { duration: TOAST_SHORT_DURATION });
      onClose();
      onSaved(saved, widget === null);
      await invalidateWidgets(client);
    } catch (error) {
      const next = widgetErrorsOf(error);
      setErrors(next);
      if (next.message) notify.error(next.message, { duration: TOAST_SHORT_DURATION });
    } finally {
      setSaving(false);
    }
  };

  const lists = targets.data ?? [];
  return (
    <SlideOver
      open={open}
      onClose={onClose}
      title={widget ? 'Edit widget' : 'Create a widget'}
      description="A sign-up widget for your website; sign-ups land in the list you choose."
      dismissible={!saving}
      initialFocus={typeRef}
      testId="widget-slide-over"
      footer={<FormFooter formId={formId} busy={saving} submitLabel="Save" onCancel={onClose} />}
    >
      <form id={formId} noValidate onSubmit={(event) => void save(event)} className="space-y-4">
        {errors.message && Object.keys(errors.fields).length === 0 && (
          <p role="alert" className="rounded-control bg-red-50 px-3 py-2 text-sm text-red-800">
            {errors.message}
          </p>
        )}
        <SelectField
          ref={typeRef}
          label="Widget type"
          value={values.type}
          error={errors.fields.type}
          onChange={(event) => {
            const type = WIDGET_TYPES.find((candidate) => candidate === event.target.value);
            if (type) set('type', type);
          }}
        >
          {WIDGET_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Target list"
          value={values.target_id}
          error={errors.fields.target_id}
          disabled={targets.isPending}
          onChange={(event) => set('target_id', event.target.value)}
        >
          <option value="">{targets.isPending ? 'Loading lists…' : 'Choose a list'}</option>
          {lists.map((list) => (
            <option key={list._id} value={list._id}>
              {list.name}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Website URL"
          type="url"
          inputMode="url"
          placeholder="https://example.com"
          autoComplete="off"
          maxLength={COMMUNITY_LIMITS.widgetUrl}
          value={values.url}
          error={errors.fields.url}
          onChange={(event) => set('url', event.target.value)}
        />
      </form>
    </SlideOver>
  );
}
