import type { QueryClient } from '@tanstack/react-query';
import { PLAN_CHANGED } from '@console/shared/config';
import { consoleStore, refreshPermissions } from '@console/shared/session';
import { notify } from '@console/shared/ui';
import type { ChangeResult } from '@console/shared/contracts';
import { billingKeys } from './api';
import { PLAN_UPDATED } from './constants';

/**
 * After a plan change (spec section 4): planChanged fires (detail: the ChangeResult), the tenant is
 * refetched, permissions are refreshed (re-verify + reload the user, so locked menu items unlock
 * without a reload), the dialogs close and 'Plan updated!' shows. The plan did change even if a
 * refresh fails: that is logged, not reported as a failed change.
 */
export async function completePlanChange(result: ChangeResult, client: QueryClient): Promise<void> {
  window.dispatchEvent(new CustomEvent(PLAN_CHANGED, { detail: result }));
  const refreshes = await Promise.allSettled([
    client.invalidateQueries({ queryKey: billingKeys.currentTenant }),
    refreshPermissions(),
  ]);
  for (const refresh of refreshes) {
    if (refresh.status === 'rejected') console.error('[console] refresh after plan change failed', refresh.reason);
  }
  consoleStore.getState().closePlans();
  notify.success(PLAN_UPDATED);
}
