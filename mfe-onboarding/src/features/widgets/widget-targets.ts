import type { List } from '@console/shared/contracts';

/** Spec section 3: auto-imported lists and lists tied to a community are not offered as widget targets. Pure. */
export function widgetTargets(lists: readonly List[]): List[] {
  return lists.filter((list) => !list.autoimport && list.community_id === null);
}
