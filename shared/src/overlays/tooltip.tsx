import { useState, type ReactNode } from 'react';
import {
  FloatingPortal,
  autoUpdate,
  flip,
  offset,
  shift,
  useDismiss,
  useFloating,
  useFocus,
  useHover,
  useInteractions,
  useRole,
} from '@floating-ui/react';
import { TOOLTIP_MAX_WIDTH, TOOLTIP_PLACEMENT } from '@console/shared/ui';

export interface TooltipProps {
  /** The tip (plain content, no HTML strings). */
  content: ReactNode;
  /** What the tip describes; wrapped in an inline span that receives hover and focus. */
  children: ReactNode;
  /** Make the wrapper itself focusable, for content that is not (an icon, text). */
  focusable?: boolean;
  className?: string;
}

/** Tooltip: top placement, max width 350 px, shows on hover and focus, Escape closes; role tooltip + aria-describedby. */
export function Tooltip({ content, children, focusable = false, className = 'inline-flex' }: TooltipProps) {
  const [open, setOpen] = useState(false);
  const { refs, floatingStyles, context } = useFloating({
    open,
    onOpenChange: setOpen,
    placement: TOOLTIP_PLACEMENT,
    middleware: [offset(8), flip({ padding: 8 }), shift({ padding: 8 })],
    whileElementsMounted: autoUpdate,
  });
  const hover = useHover(context, { move: false });
  const focus = useFocus(context);
  const dismiss = useDismiss(context);
  const role = useRole(context, { role: 'tooltip' });
  const { getReferenceProps, getFloatingProps } = useInteractions([hover, focus, dismiss, role]);

  return (
    <>
      <span ref={refs.setReference} className={className} tabIndex={focusable ? 0 : undefined} {...getReferenceProps()}>
        {children}
      </span>
      {open && (
        <FloatingPortal>
          <div
            ref={refs.setFloating}
            style={{ ...floatingStyles, maxWidth: TOOLTIP_MAX_WIDTH }}
            className="z-50 rounded-control bg-slate-900 px-3 py-2 text-xs leading-snug text-white shadow-panel"
            {...getFloatingProps()}
          >
            {content}
          </div>
        </FloatingPortal>
      )}
    </>
  );
}
