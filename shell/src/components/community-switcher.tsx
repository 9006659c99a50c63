import { useEffect, useState } from 'react';
import { MemberCommunityList, TokenResponse, type MemberCommunity } from '@console/shared/contracts';
import { api, ApiError } from '@console/shared/api';
import { signInWithToken } from '@console/shared/session';
import { Dropdown } from '@console/shared/overlays';
import { notify } from '@console/shared/ui';

const SWITCH_FAILED = 'Could not switch communities. Please try again.';

/**
 * The signed-in person's communities, fetched once per user (the header stays mounted across pages;
 * without TanStack Query, which the shell loads only with data pages). A failure leaves no switcher.
 */
function useCommunities(userId: string): MemberCommunity[] {
  const [records, setRecords] = useState<MemberCommunity[]>([]);
  useEffect(() => {
    let live = true;
    api.get('/v1/auth/communities', MemberCommunityList).then(
      (list) => live && setRecords(list.records),
      (error: unknown) => console.error('[console] communities fetch failed', error),
    );
    return () => {
      live = false;
    };
  }, [userId]);
  return records;
}

/**
 * The header's community switcher: shown only to a person with accounts in several communities (one
 * address and password; gateway auth/communities.ts), never while impersonating. Choosing one signs
 * in there with a token of that account and opens its overview, as after signing in.
 */
export function CommunitySwitcher({ userId }: { userId: string }) {
  const [busy, setBusy] = useState(false);
  const records = useCommunities(userId);
  const current = records.find((c) => c.current);
  if (records.length < 2 || !current) return null;

  const switchTo = async (tenantId: string) => {
    setBusy(true);
    try {
      const { token } = await api.post('/v1/auth/switch', TokenResponse, { tenant_id: tenantId });
      await signInWithToken(token);
    } catch (error) {
      notify.error(error instanceof ApiError && error.body.message ? error.body.message : SWITCH_FAILED);
      setBusy(false);
    }
  };

  return (
    <Dropdown
      placement="bottom-end"
      header={
        <p className="px-3 py-2 text-xs font-semibold uppercase tracking-wide text-slate-600">Switch community</p>
      }
      trigger={
        <span className="flex items-center gap-1 text-sm text-slate-700">
          <span className="sr-only">Community: </span>
          {current.tenant_name}
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 fill-current">
            <path d="M5.5 7.5 10 12l4.5-4.5z" />
          </svg>
        </span>
      }
      items={records
        .filter((c) => !c.current)
        .map((c) => ({
          key: c.tenant_id,
          label: c.tenant_name,
          disabled: busy,
          onSelect: () => void switchTo(c.tenant_id),
        }))}
    />
  );
}
