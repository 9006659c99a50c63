import { Dropdown, type DropdownItem } from '@console/shared/overlays';
import type { MergeTagCatalogue } from '@console/shared/contracts';
import { liquidFor } from '../template-rules';

/**
 * A menu of the merge tags (GET /v1/templates/merge-tags: contact fields, custom attributes,
 * community fields, links), by group; choosing one hands its Liquid to `onPick`. Arrow keys move,
 * Enter picks, Escape closes.
 */
export function MergeTagMenu({
  catalogue,
  label,
  onPick,
}: {
  /** Undefined while loading; null when it could not be loaded. */
  catalogue: MergeTagCatalogue | null | undefined;
  /** Accessible name of the trigger, e.g. 'Insert a merge tag into the subject'. */
  label: string;
  onPick: (liquid: string) => void;
}) {
  const items: DropdownItem[] =
    catalogue === undefined
      ? [{ key: 'loading', label: 'Loading merge tags…', disabled: true }]
      : catalogue === null
        ? [{ key: 'failed', label: 'Merge tags could not be loaded.', disabled: true }]
        : catalogue.groups.flatMap((group) =>
            group.tags.map((tag) => ({
              key: tag.tag,
              label: (
                <span className="flex flex-col">
                  <span>
                    <span className="text-slate-600">{group.label}: </span>
                    {tag.label}
                  </span>
                  <span className="font-mono text-xs text-slate-600">{`{{ ${tag.tag} }}`}</span>
                </span>
              ),
              onSelect: () => onPick(liquidFor(tag.tag)),
            })),
          );
  return (
    <Dropdown
      label={label}
      items={items}
      placement="bottom-end"
      width={300}
      menuClassName="max-h-96 overflow-y-auto"
      triggerClassName="inline-flex items-center gap-1 rounded-control px-2 py-1.5 text-sm font-medium text-slate-800 ring-1 ring-slate-300 ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
      trigger={
        <>
          <span aria-hidden="true" className="font-mono">
            {'{{ }}'}
          </span>
          <span aria-hidden="true">Merge tag</span>
        </>
      }
    />
  );
}
