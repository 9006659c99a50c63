import type { List } from '@console/shared/contracts';

const BADGE = 'inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset';

/** Lists the platform fills itself: auto-imported, or tied to the community page. */
export function ListBadges({ list }: { list: Pick<List, 'autoimport' | 'community_id'> }) {
  return (
    <>
      {list.autoimport && <span className={`${BADGE} bg-sky-50 text-sky-800 ring-sky-600/20`}>Auto-import</span>}
      {list.community_id !== null && (
        <span className={`${BADGE} bg-violet-50 text-violet-800 ring-violet-600/20`}>Community</span>
      )}
    </>
  );
}
