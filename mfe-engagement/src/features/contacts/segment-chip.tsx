import { useQuery } from '@tanstack/react-query';
import { fetchSegment } from './api';

/** "Segment: <name>" while the grid is filtered by a segment (linked from Segments), with a remove button. */
export function SegmentChip({ segmentId, onRemove }: { segmentId: string; onRemove: () => void }) {
  const segment = useQuery({ queryKey: ['segments', segmentId], queryFn: () => fetchSegment(segmentId), retry: false });
  const name = segment.data?.name ?? (segment.isError ? 'unknown segment' : '…');
  return (
    <span className="mb-3 inline-flex items-center gap-1 rounded-full bg-brand-50 py-1 pr-1 pl-3 text-sm text-brand-900 ring-1 ring-brand-200 ring-inset">
      Segment: {name}
      <button
        type="button"
        onClick={onRemove}
        aria-label="Remove segment filter"
        className="rounded-full p-0.5 text-brand-700 hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 fill-current">
          <path d="M5.3 4.3 10 9l4.7-4.7 1 1L11 10l4.7 4.7-1 1L10 11l-4.7 4.7-1-1L9 10 4.3 5.3z" />
        </svg>
      </button>
    </span>
  );
}
