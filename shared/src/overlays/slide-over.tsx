import { useId, type ReactNode } from 'react';
import {
  FloatingFocusManager,
  FloatingOverlay,
  FloatingPortal,
  useDismiss,
  useFloating,
  useInteractions,
  useRole,
  useTransitionStyles,
  type FloatingFocusManagerProps,
} from '@floating-ui/react';
import { DIALOG_ENTER_MS, DIALOG_LEAVE_MS } from '@console/shared/ui';

export type SlideOverSize = 'md' | 'lg' | 'xl';

export interface SlideOverProps {
  open: boolean;
  /** Called when the user dismisses the panel (Escape, backdrop, close icon). The parent sets `open` to false. */
  onClose: () => void;
  title: ReactNode;
  /** A line under the title. */
  description?: ReactNode;
  children?: ReactNode;
  /** Sticky buttons row at the bottom of the panel. */
  footer?: ReactNode;
  /** Escape and backdrop close at all (default true; false while something must finish). */
  dismissible?: boolean;
  size?: SlideOverSize;
  /** What takes focus when the panel opens (default: the first tabbable element). */
  initialFocus?: FloatingFocusManagerProps['initialFocus'];
  testId?: string;
}

const SIZES: Record<SlideOverSize, string> = {
  md: 'max-w-md',
  lg: 'max-w-xl',
  xl: 'max-w-3xl',
};

/**
 * A modal panel that slides in from the right (forms too long for a dialog): portal, backdrop, focus
 * trapped inside and returned to the opener, Escape and backdrop dismissal, role dialog + aria-modal +
 * aria-labelledby, a close icon, and the dialog timings (enter 300 ms, leave 200 ms).
 */
export function SlideOver({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  dismissible = true,
  size = 'lg',
  initialFocus,
  testId,
}: SlideOverProps) {
  const titleId = useId();
  const descriptionId = useId();
  const { refs, context } = useFloating({
    open,
    onOpenChange: (next) => {
      if (!next) onClose();
    },
  });
  const dismiss = useDismiss(context, { enabled: dismissible, outsidePressEvent: 'mousedown' });
  const role = useRole(context, { role: 'dialog' });
  const { getFloatingProps } = useInteractions([dismiss, role]);
  const duration = { open: DIALOG_ENTER_MS, close: DIALOG_LEAVE_MS };
  const backdrop = useTransitionStyles(context, { duration, initial: { opacity: 0 } });
  const panel = useTransitionStyles(context, { duration, initial: { transform: 'translateX(100%)' } });

  if (!panel.isMounted) return null;

  return (
    <FloatingPortal>
      <FloatingOverlay
        lockScroll
        data-testid="slide-over-backdrop"
        className="z-50 flex justify-end bg-slate-900/50"
        style={backdrop.styles}
      >
        <FloatingFocusManager context={context} modal initialFocus={initialFocus}>
          <div
            ref={refs.setFloating}
            {...getFloatingProps()}
            aria-modal="true"
            aria-labelledby={titleId}
            aria-describedby={description === undefined ? undefined : descriptionId}
            tabIndex={-1}
            data-testid={testId}
            style={panel.styles}
            className={[
              'flex h-full w-full flex-col bg-white text-left text-slate-700 shadow-panel focus:outline-none',
              SIZES[size],
            ].join(' ')}
          >
            <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-6 py-4">
              <div className="min-w-0">
                <h2 id={titleId} className="text-lg font-semibold text-slate-900">
                  {title}
                </h2>
                {description !== undefined && (
                  <p id={descriptionId} className="mt-1 text-sm text-slate-500">
                    {description}
                  </p>
                )}
              </div>
              <button
                type="button"
                aria-label="Close"
                onClick={onClose}
                disabled={!dismissible}
                className="rounded-control p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-600 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:opacity-50"
              >
                <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 fill-current">
                  <path d="M5.3 4.3 10 9l4.7-4.7 1 1L11 10l4.7 4.7-1 1L10 11l-4.7 4.7-1-1L9 10 4.3 5.3z" />
                </svg>
              </button>
            </div>
            <div className="min-h-0 flex-1 overflow-y-auto px-6 py-5 text-sm">{children}</div>
            {footer !== undefined && (
              <div className="flex flex-wrap items-center justify-end gap-3 border-t border-slate-200 px-6 py-4">
                {footer}
              </div>
            )}
          </div>
        </FloatingFocusManager>
      </FloatingOverlay>
    </FloatingPortal>
  );
}
