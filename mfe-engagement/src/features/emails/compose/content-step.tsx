import { useId, useRef, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useLocation, useNavigate } from '@console/shared/router';
import { ApiError, messageOf } from '@console/shared/api';
import { useConsole } from '@console/shared/session';
import { Button, Spinner, TextField, notify } from '@console/shared/ui';
import { CAMPAIGN_LIMITS } from '@console/shared/contracts';
import { duplicateTemplate, fetchTemplateChoices, mergeTagsQuery } from '../api';
import { TemplateThumbnail } from '../../templates/template-thumbnail';
import { MergeTagMenu } from '../../templates/designer/merge-tag-menu';
import { insertAt } from '../../templates/template-rules';
import { designerHref } from '../../templates/designer/designer-return';
import type { ComposeDraft } from '../campaign-rules';

type Fields = Pick<ComposeDraft, 'template_id' | 'subject' | 'preview_text'>;

/** A text field with a merge-tag menu that inserts the tag at the caret. */
function MergeField({
  label,
  value,
  maxLength,
  error,
  readOnly,
  onChange,
}: {
  label: string;
  value: string;
  maxLength: number;
  error?: string;
  readOnly: boolean;
  onChange: (value: string) => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  const tags = useQuery(mergeTagsQuery());
  return (
    <div className="flex items-end gap-2">
      <TextField
        ref={ref}
        label={label}
        value={value}
        maxLength={maxLength}
        error={error}
        disabled={readOnly}
        containerClassName="flex-1"
        onChange={(event) => onChange(event.target.value)}
      />
      {!readOnly && (
        <MergeTagMenu
          catalogue={tags.isError ? null : tags.data}
          label={`Insert a merge tag into the ${label.toLowerCase()}`}
          onPick={(liquid) => {
            const input = ref.current;
            const next = insertAt(value, liquid, input?.selectionStart ?? null, input?.selectionEnd ?? null);
            onChange(next.value.slice(0, maxLength));
            requestAnimationFrame(() => {
              input?.focus();
              input?.setSelectionRange(next.caret, next.caret);
            });
          }}
        />
      )}
    </div>
  );
}

/**
 * Content: the template (the tenant's templates, newest first, searchable, with thumbnails), a way
 * to change its design in the designer (on a copy, so other e-mails keep theirs), subject and
 * preview text with merge tags.
 */
export function ContentStep({
  value,
  onChange,
  errors,
  readOnly,
  beforeLeave,
}: {
  value: Fields;
  onChange: (next: Partial<Fields>) => void;
  errors: Record<string, string>;
  readOnly: boolean;
  /** Saves what is pending before the designer opens. */
  beforeLeave: () => Promise<boolean>;
}) {
  const navigate = useNavigate();
  const location = useLocation();
  const groupId = useId();
  const [search, setSearch] = useState('');
  const [copying, setCopying] = useState(false);
  const templates = useQuery({
    queryKey: ['templates', 'list', 'compose', search.trim()],
    queryFn: () =>
      fetchTemplateChoices({
        page: 1,
        perPage: 24,
        sortField: 'updated_at',
        sortOrder: 'desc',
        searchString: search.trim(),
      }),
    placeholderData: keepPreviousData,
  });
  const chosen = value.template_id;
  // Choosing needs the e-mails permission; changing a design is the designer's, which needs
  // `templates` (spec section 2: engagement/template-designer).
  const canDesign = useConsole((s) => s.user?.permissions.includes('templates') ?? false);

  const designOnCopy = async () => {
    if (!chosen) return;
    setCopying(true);
    try {
      const copy = await duplicateTemplate(chosen);
      onChange({ template_id: copy._id });
      await beforeLeave();
      // The designer's back link returns here (this e-mail's compose screen).
      void navigate(designerHref(copy._id, location.pathname));
    } catch (error) {
      notify.error(messageOf(error, 'The template could not be copied.'));
      setCopying(false);
    }
  };

  return (
    <div className="space-y-8">
      <fieldset className="space-y-3" disabled={readOnly}>
        <legend className="text-sm font-medium text-slate-800">Template</legend>
        <div className="flex flex-wrap items-end gap-3">
          <TextField
            type="search"
            label="Search templates"
            hideLabel
            placeholder="Search templates"
            value={search}
            maxLength={200}
            containerClassName="w-full max-w-xs"
            onChange={(event) => setSearch(event.target.value)}
          />
          {chosen && !readOnly && canDesign && (
            <Button variant="secondary" busy={copying} onClick={() => void designOnCopy()}>
              Edit the design (on a copy)
            </Button>
          )}
        </div>
        {errors.template_id && <p className="text-sm text-red-700">{errors.template_id}</p>}
        {templates.isPending && (
          <p className="flex items-center gap-2 text-sm text-slate-600">
            <Spinner className="h-4 w-4" decorative /> Loading templates…
          </p>
        )}
        {templates.isError && (
          <p role="alert" className="text-sm text-red-700">
            {templates.error instanceof ApiError && templates.error.status === 403
              ? 'Choosing a template needs the E-mails permission. Ask an administrator of your community.'
              : 'The templates could not be loaded.'}
          </p>
        )}
        {templates.data && templates.data.records.length === 0 && (
          <p className="text-sm text-slate-600">
            {search ? (
              'No template matches.'
            ) : canDesign ? (
              <>
                No marketing templates yet: create one under{' '}
                <Link to="/engagement/templates" className="text-brand-700 underline">
                  Templates
                </Link>
                .
              </>
            ) : (
              'No marketing templates yet. Someone with access to Templates needs to create one first.'
            )}
          </p>
        )}
        <div className="grid grid-cols-[repeat(auto-fill,minmax(9.5rem,1fr))] gap-3">
          {templates.data?.records.map((t) => {
            const inputId = `${groupId}-${t._id}`;
            return (
              <div
                key={t._id}
                className={`relative flex flex-col gap-2 rounded-control border p-2 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 ${
                  chosen === t._id ? 'border-brand-600 bg-brand-50' : 'border-slate-300 hover:bg-slate-50'
                }`}
              >
                <TemplateThumbnail id={t._id} version={t.version} />
                <span className="flex items-center gap-2">
                  <input
                    id={inputId}
                    type="radio"
                    name={`${groupId}-template`}
                    checked={chosen === t._id}
                    onChange={() =>
                      onChange({
                        template_id: t._id,
                        ...(value.subject.trim() === '' && t.subject ? { subject: t.subject } : {}),
                        ...(value.preview_text.trim() === '' && t.preview_text ? { preview_text: t.preview_text } : {}),
                      })
                    }
                    className="relative z-10 accent-brand-600"
                  />
                  <label
                    htmlFor={inputId}
                    className="cursor-pointer font-medium text-slate-900 after:absolute after:inset-0"
                  >
                    {t.name}
                  </label>
                </span>
              </div>
            );
          })}
        </div>
      </fieldset>
      <div className="max-w-2xl space-y-4">
        <MergeField
          label="Subject"
          value={value.subject}
          maxLength={CAMPAIGN_LIMITS.subject}
          error={errors.subject}
          readOnly={readOnly}
          onChange={(subject) => onChange({ subject })}
        />
        <MergeField
          label="Preview text"
          value={value.preview_text}
          maxLength={CAMPAIGN_LIMITS.previewText}
          error={errors.preview_text}
          readOnly={readOnly}
          onChange={(preview_text) => onChange({ preview_text })}
        />
        <p className="text-xs text-slate-600">The preview text shows after the subject in most inboxes.</p>
      </div>
    </div>
  );
}
