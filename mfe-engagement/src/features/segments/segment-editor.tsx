import { useMemo, useState, type FormEvent } from 'react';
import { Link } from '@console/shared/router';
import { prepareRuleGroup, type RuleGroupType } from 'react-querybuilder';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, TextArea, TextField, notify } from '@console/shared/ui';
import type { List, Segment, SegmentField, SegmentInput } from '@console/shared/contracts';
import { SEGMENTS_KEY, createSegment, updateSegment } from './api';
import { formErrorsOf } from '@console/shared/api';
import { RuleBuilder } from './rule-builder';
import { fromSegmentGroup, toSegmentGroup } from './rule-json';
import { SegmentPreviewPanel, ruleErrorsOf, useSegmentPreview } from './segment-preview';
import { withUnwatchedFields } from './unwatched-fields';

/** A new segment starts with subscribed contacts. */
const NEW_RULE: RuleGroupType = {
  combinator: 'and',
  rules: [{ field: 'status', operator: '=', value: 'subscribed' }],
};

interface SaveErrors {
  fields: Record<string, string>;
  rule: string[] | null;
  message: string | null;
}
const NO_ERRORS: SaveErrors = { fields: {}, rule: null, message: null };

export const contactsOfSegment = (id: string) => `/engagement/contacts?segmentId=${encodeURIComponent(id)}`;

/** Name, description and rules of a segment, with its live count; saves by POST or PATCH. */
export function SegmentEditor({
  segment,
  fields,
  lists,
  onClose,
  onSaved,
  onDelete,
}: {
  segment: Segment | null;
  fields: readonly SegmentField[];
  lists: readonly List[];
  onClose: () => void;
  onSaved: (segment: Segment) => void;
  onDelete: (segment: Segment) => void;
}) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(segment?.name ?? '');
  const [description, setDescription] = useState(segment?.description ?? '');
  const [query, setQuery] = useState<RuleGroupType>(() =>
    prepareRuleGroup(segment ? fromSegmentGroup(segment.rule) : NEW_RULE),
  );
  const [errors, setErrors] = useState<SaveErrors>(NO_ERRORS);
  const rule = useMemo(() => toSegmentGroup(query), [query]);
  const builderFields = useMemo(() => withUnwatchedFields(fields, segment?.rule ?? null), [fields, segment]);
  const fieldsByName = useMemo(() => new Map(builderFields.map((field) => [field.name, field])), [builderFields]);
  const preview = useSegmentPreview(rule, fieldsByName);

  const save = useMutation({
    mutationFn: (input: SegmentInput) => (segment ? updateSegment(segment._id, input) : createSegment(input)),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: [...SEGMENTS_KEY, 'list'] });
      notify.success('Segment saved.');
      onSaved(saved);
    },
    onError: (error) => {
      const { fields: found, message } = formErrorsOf(error, 'The segment could not be saved. Please try again.');
      const ruleMessages = ruleErrorsOf(error);
      const unplaced = Object.entries(found).filter(([field]) => !['name', 'description', 'rule'].includes(field));
      setErrors({
        fields: found,
        rule: ruleMessages,
        message: message ?? (unplaced.map(([, text]) => text).join(' ') || null),
      });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') {
      setErrors({ ...NO_ERRORS, fields: { name: 'Enter a name.' } });
      return;
    }
    setErrors(NO_ERRORS);
    save.mutate({ name: name.trim(), description, rule });
  };

  const changeQuery = (next: RuleGroupType) => {
    setQuery(next);
    if (errors.rule) setErrors({ ...errors, rule: null });
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-6" aria-label={segment ? 'Edit segment' : 'New segment'}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-slate-900">{segment ? `Edit “${segment.name}”` : 'New segment'}</h2>
        <Button variant="link" onClick={onClose}>
          Back to segments
        </Button>
      </div>
      {errors.message && (
        <p role="alert" className="rounded-control bg-red-50 p-3 text-sm text-red-700">
          {errors.message}
        </p>
      )}
      <div className="grid gap-4 rounded-panel border border-slate-200 bg-white p-4 md:grid-cols-2">
        <TextField
          label="Name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={errors.fields.name}
          autoComplete="off"
        />
        <TextArea
          label="Description"
          rows={2}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          error={errors.fields.description}
        />
      </div>
      <section aria-labelledby="segment-rules" className="space-y-4 rounded-panel border border-slate-200 bg-white p-4">
        <div>
          <h3 id="segment-rules" className="text-base font-semibold text-slate-900">
            Rules
          </h3>
          <p className="text-sm text-slate-500">
            Contacts that match these rules belong to the segment. The count is the audience a send to it reaches.
          </p>
        </div>
        <RuleBuilder fields={builderFields} lists={lists} query={query} onQueryChange={changeQuery} />
        <SegmentPreviewPanel preview={preview} ruleErrors={errors.rule} />
      </section>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex gap-3">
          {segment && (
            <Link
              to={contactsOfSegment(segment._id)}
              className="inline-flex items-center rounded-control px-4 py-2 text-sm font-medium text-brand-700 ring-1 ring-brand-200 ring-inset hover:bg-brand-50"
            >
              View contacts
            </Link>
          )}
          {segment && (
            <Button variant="danger" onClick={() => onDelete(segment)}>
              Delete
            </Button>
          )}
        </div>
        <div className="flex gap-3">
          <Button variant="secondary" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" busy={save.isPending}>
            Save segment
          </Button>
        </div>
      </div>
    </form>
  );
}
