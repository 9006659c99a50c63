import { useId, useState } from 'react';
import {
  FloatingFocusManager,
  FloatingPortal,
  autoUpdate,
  flip,
  offset,
  shift,
  useClick,
  useDismiss,
  useFloating,
  useInteractions,
  useRole,
} from '@floating-ui/react';
import { DROPDOWN_OFFSET } from '@console/shared/ui';
import type { CustomAttribute } from '@console/shared/contracts';

/**
 * "Columns": a popover of checkboxes that show or hide the custom attribute columns (it stays open
 * while toggling; Escape or a click outside closes it and focus returns to the button).
 */
export function ColumnsMenu({
  attributes,
  visible,
  onToggle,
}: {
  attributes: readonly Pick<CustomAttribute, '_id' | 'key' | 'name'>[];
  visible: ReadonlySet<string>;
  onToggle: (key: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const headingId = useId();
  const { refs, floatingStyles, context } = useFloating({
    open,
    onOpenChange: setOpen,
    placement: 'bottom-end',
    middleware: [offset(DROPDOWN_OFFSET), flip({ padding: 8 }), shift({ padding: 8 })],
    whileElementsMounted: autoUpdate,
  });
  const click = useClick(context);
  const dismiss = useDismiss(context);
  const role = useRole(context, { role: 'dialog' });
  const { getReferenceProps, getFloatingProps } = useInteractions([click, dismiss, role]);
  const shown = attributes.filter((attribute) => visible.has(attribute.key)).length;

  return (
    <>
      <button
        type="button"
        ref={refs.setReference}
        {...getReferenceProps()}
        className="inline-flex items-center gap-1 rounded-control bg-white px-3 py-2 text-sm font-medium text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        Columns
        {shown > 0 && <span className="text-slate-500">({shown})</span>}
      </button>
      {open && (
        <FloatingPortal>
          <FloatingFocusManager context={context} modal={false}>
            <div
              ref={refs.setFloating}
              style={floatingStyles}
              aria-labelledby={headingId}
              {...getFloatingProps()}
              className="z-40 w-64 rounded-control border border-slate-200 bg-white p-3 shadow-panel focus:outline-none"
            >
              <p id={headingId} className="mb-2 text-xs font-semibold text-slate-500 uppercase">
                Custom attribute columns
              </p>
              {attributes.length === 0 ? (
                <p className="text-sm text-slate-600">No custom attributes yet.</p>
              ) : (
                <ul className="max-h-64 space-y-1 overflow-y-auto">
                  {attributes.map((attribute) => (
                    <li key={attribute._id}>
                      <label className="flex items-center gap-2 rounded-sm px-1 py-1 text-sm text-slate-700 hover:bg-slate-50">
                        <input
                          type="checkbox"
                          checked={visible.has(attribute.key)}
                          onChange={() => onToggle(attribute.key)}
                          className="h-4 w-4 accent-brand-600"
                        />
                        {attribute.name}
                      </label>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </FloatingFocusManager>
        </FloatingPortal>
      )}
    </>
  );
}
