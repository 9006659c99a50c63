import { useId, useRef, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@console/shared/router';
import { formErrorsOf } from '@console/shared/api';
import { SelectField, Spinner, TextField, notify } from '@console/shared/ui';
import { Dialog, FormFooter } from '@console/shared/overlays';
import { TEMPLATE_KINDS, TEMPLATE_LIMITS, type TemplateKind, type TemplateStarter } from '@console/shared/contracts';
import { createTemplate, invalidateTemplates, startersQuery } from './api';
import { KIND_LABELS } from './template-rules';
import { designerHref } from './designer/designer-return';
import { StarterThumbnail } from './template-thumbnail';

/** Blank, a built-in starter, or a platform design of the gallery (`gallery:<id>`). */
type Choice = TemplateStarter | 'blank' | `gallery:${string}`;

const GALLERY = 'gallery:';

/**
 * Create a template: blank, or from the starter gallery (designs for web3 communities, then the designs
 * the platform added; a platform design keeps its own kind). The new template opens in the designer.
 * Mount with a key per opening.
 */
export function CreateTemplateDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const formId = useId();
  const nameRef = useRef<HTMLInputElement>(null);
  const starters = useQuery(startersQuery());
  const [choice, setChoice] = useState<Choice>('blank');
  const [name, setName] = useState('');
  const [nameTouched, setNameTouched] = useState(false);
  const [kind, setKind] = useState<TemplateKind>('marketing');
  const [errors, setErrors] = useState<{ name?: string; other?: string }>({});
  const [saving, setSaving] = useState(false);

  const nameOf = (key: Choice): string => {
    if (key === 'blank') return '';
    if (key.startsWith(GALLERY)) return starters.data?.gallery.find((g) => `${GALLERY}${g._id}` === key)?.name ?? '';
    return starters.data?.records.find((s) => s.key === key)?.name ?? '';
  };
  const choose = (next: Choice) => {
    setChoice(next);
    if (!nameTouched) setName(nameOf(next));
    // A platform design keeps its own kind.
    const design = starters.data?.gallery.find((g) => `${GALLERY}${g._id}` === next);
    if (design) setKind(design.kind);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    if (!name.trim()) {
      setErrors({ name: 'Name the template.' });
      nameRef.current?.focus();
      return;
    }
    setSaving(true);
    setErrors({});
    try {
      const fromGallery = choice.startsWith(GALLERY);
      const created = await createTemplate({
        name: name.trim(),
        kind,
        starter: choice === 'blank' || fromGallery ? null : (choice as TemplateStarter),
        gallery_id: fromGallery ? choice.slice(GALLERY.length) : null,
      });
      await invalidateTemplates(client);
      notify.success('Template created.');
      onClose();
      void navigate(designerHref(created._id));
    } catch (failure) {
      const found = formErrorsOf(failure, 'The template could not be created. Please try again.');
      setErrors({
        name: found.fields.name,
        other: found.message ?? found.fields.starter ?? found.fields.gallery_id ?? found.fields.kind,
      });
    } finally {
      setSaving(false);
    }
  };

  const card = (key: Choice, title: string, description: string) => {
    const inputId = `${formId}-${key}`;
    return (
      <div
        key={key}
        className={`relative flex gap-3 rounded-control border p-3 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 ${
          choice === key ? 'border-brand-600 bg-brand-50' : 'border-slate-300 hover:bg-slate-50'
        }`}
      >
        {key !== 'blank' && <StarterThumbnail starter={key} />}
        <div className="flex min-w-0 flex-col gap-1">
          <span className="flex items-center gap-2 font-medium text-slate-900">
            <input
              id={inputId}
              type="radio"
              name={`${formId}-start`}
              value={key}
              checked={choice === key}
              onChange={() => choose(key)}
              aria-describedby={`${inputId}-description`}
              className="relative z-10 accent-brand-600"
            />
            {/* The label covers the whole card (after:inset-0), so the card is the click target. */}
            <label htmlFor={inputId} className="cursor-pointer after:absolute after:inset-0">
              {title}
            </label>
          </span>
          <span id={`${inputId}-description`} className="text-slate-600">
            {description}
          </span>
        </div>
      </div>
    );
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Create template"
      size="lg"
      dismissible={!saving}
      initialFocus={nameRef}
      footer={<FormFooter formId={formId} busy={saving} submitLabel="Create and open" onCancel={onClose} />}
    >
      <form id={formId} noValidate onSubmit={(event) => void save(event)} className="space-y-4">
        {errors.other && (
          <p role="alert" className="rounded-control bg-red-50 px-3 py-2 text-sm text-red-800">
            {errors.other}
          </p>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            ref={nameRef}
            label="Name"
            value={name}
            maxLength={TEMPLATE_LIMITS.name}
            error={errors.name}
            onChange={(event) => {
              setNameTouched(true);
              setName(event.target.value);
            }}
          />
          <SelectField label="Kind" value={kind} onChange={(event) => setKind(event.target.value as TemplateKind)}>
            {TEMPLATE_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </SelectField>
        </div>
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-slate-800">Start from</legend>
          <div className="grid gap-3 sm:grid-cols-2">
            {card('blank', 'Blank', 'An empty design with a footer: build it from the blocks.')}
            {starters.data?.records.map((s) => card(s.key, s.name, s.description))}
            {starters.data?.gallery.map((g) =>
              card(`${GALLERY}${g._id}`, g.name, g.subject ? `From the platform: ${g.subject}` : 'From the platform.'),
            )}
          </div>
          {starters.isPending && (
            <p className="mt-2 flex items-center gap-2 text-sm text-slate-600">
              <Spinner className="h-4 w-4" decorative />
              Loading the starter designs…
            </p>
          )}
          {starters.isError && (
            <p className="mt-2 text-sm text-slate-600">The starter designs could not be loaded: start from blank.</p>
          )}
        </fieldset>
      </form>
    </Dialog>
  );
}
