import { useQuery } from '@tanstack/react-query';
import { formatCount } from '@console/shared/format';
import type { AudienceCount, AudienceSelection } from '@console/shared/contracts';
import { allListsQuery, allSegmentsQuery } from '../api';
import { SourcePicker, type SourceOption } from './source-picker';
import { AudienceCountPanel } from './audience-count';

/** Audience: lists and segments to include and to exclude, and the live count beside them. */
export function AudienceStep({
  audience,
  onChange,
  count,
  counting,
  countError,
  readOnly,
}: {
  audience: AudienceSelection;
  onChange: (next: AudienceSelection) => void;
  count: AudienceCount | undefined;
  counting: boolean;
  countError: string | null;
  readOnly: boolean;
}) {
  const lists = useQuery(allListsQuery());
  const segments = useQuery(allSegmentsQuery());
  const listOptions: SourceOption[] = [...(lists.data?.records ?? [])]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((l) => ({ id: l._id, name: l.name, detail: `${formatCount(l.member_count)} contacts` }));
  const segmentOptions: SourceOption[] = (segments.data?.records ?? []).map((s) => ({ id: s._id, name: s.name }));
  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
      <div className="space-y-6">
        {(lists.isError || segments.isError) && (
          <p role="alert" className="text-sm text-red-700">
            Your lists or segments could not be loaded. Reload the page to try again.
          </p>
        )}
        <SourcePicker
          legend="Send to"
          lists={listOptions}
          segments={segmentOptions}
          chosenLists={audience.include_lists}
          chosenSegments={audience.include_segments}
          disabled={readOnly}
          onChange={(next) => onChange({ ...audience, include_lists: next.lists, include_segments: next.segments })}
        />
        <SourcePicker
          legend="Leave out"
          lists={listOptions}
          segments={segmentOptions}
          chosenLists={audience.exclude_lists}
          chosenSegments={audience.exclude_segments}
          disabled={readOnly}
          onChange={(next) => onChange({ ...audience, exclude_lists: next.lists, exclude_segments: next.segments })}
        />
      </div>
      <AudienceCountPanel count={count} loading={counting} error={countError} />
    </div>
  );
}
