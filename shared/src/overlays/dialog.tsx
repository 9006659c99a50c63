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

export type DialogSize = 'sm' | 'md' | 'lg' | 'xl';

export interface DialogProps {
  open: boolean;
  /** Called when the user dismisses the dialog (Escape, backdrop, close icon). The parent sets `open` to false. */
  onClose: () => void;
  title: ReactNode;
  /** Shown above the title (e.g. a mascot image). */
  media?: ReactNode;
  children?: ReactNode;
  /** Buttons row under the body. */
  footer?: ReactNode;
  /** Backdrop click closes (default true). */
  dismissOnBackdrop?: boolean;
  /** Escape and backdrop close at all (default true; false while something must finish). */
  dismissible?: boolean;
  /** Show a close icon in the corner (default false). */
  showCloseButton?: boolean;
  size?: DialogSize;
  /** What takes focus when the dialog opens (default: the first tabbable element). */
  initialFocus?: FloatingFocusManagerProps['initialFocus'];
  /** Id of the element describing the dialog (aria-describedby). */
  descriptionId?: string;
  /** Extra classes for the panel. */
  className?: string;
  testId?: string;
}

const SIZES: Record<DialogSize, string> = {
  sm: 'max-w-sm',
  md: 'max-w-lg',
  lg: 'max-w-2xl',
  xl: 'max-w-5xl',
};

/**
 * The base modal dialog: portal, backdrop, focus trapped inside and returned to the opener,
 * Escape and backdrop dismissal, role dialog + aria-modal + aria-labelledby, enter 300 ms / leave 200 ms.
 */
export function Dialog({
  open,
  onClose,
  title,
  media,
  children,
  footer,
  dismissOnBackdrop = true,
  dismissible = true,
  showCloseButton = false,
  size = 'md',
  initialFocus,
  descriptionId,
  className,
  testId,
}: DialogProps) {
  const titleId = useId();
  const { refs, context } = useFloating({
    open,
    onOpenChange: (next) => {
      if (!next) onClose();
    },
  });
  const dismiss = useDismiss(context, {
    enabled: dismissible,
    outsidePress: dismissOnBackdrop,
    outsidePressEvent: 'mousedown',
  });
  const role = useRole(context, { role: 'dialog' });
  const { getFloatingProps } = useInteractions([dismiss, role]);
  const duration = { open: DIALOG_ENTER_MS, close: DIALOG_LEAVE_MS };
  const backdrop = useTransitionStyles(context, { duration, initial: { opacity: 0 } });
  const panel = useTransitionStyles(context, {
    duration,
    initial: { opacity: 0, transform: 'translateY(12px) scale(0.97)' },
  });

  if (!panel.isMounted) return null;

  return (
    <FloatingPortal>
      <FloatingOverlay
        lockScroll
        data-testid="dialog-backdrop"
        className="z-50 flex items-end justify-center bg-slate-900/50 p-4 sm:items-center"
        style={backdrop.styles}
      >
        <FloatingFocusManager context={context} modal initialFocus={initialFocus}>
          <div
            ref={refs.setFloating}
            {...getFloatingProps()}
            aria-modal="true"
            aria-labelledby={titleId}
            aria-describedby={descriptionId}
            tabIndex={-1}
            data-testid={testId}
            style={panel.styles}
            className={[
              'relative max-h-[calc(100vh-2rem)] w-full overflow-y-auto rounded-panel bg-white p-6 text-left text-slate-700 shadow-panel focus:outline-none',
              SIZES[size],
              className,
            ]
              .filter(Boolean)
              .join(' ')}
          >
            {showCloseButton && (
              <button
                type="button"
                aria-label="Close"
                onClick={onClose}
                className="absolute top-4 right-4 rounded-control p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-600 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 fill-current">
                  <path d="M5.3 4.3 10 9l4.7-4.7 1 1L11 10l4.7 4.7-1 1L10 11l-4.7 4.7-1-1L9 10 4.3 5.3z" />
                </svg>
              </button>
            )}
            {media}
            <h2 id={titleId} className="pr-8 text-lg font-semibold text-slate-900">
              {title}
            </h2>
            {children !== undefined && <div className="mt-3 text-sm">{children}</div>}
            {footer !== undefined && <div className="mt-6 flex flex-wrap justify-end gap-3">{footer}</div>}
          </div>
        </FloatingFocusManager>
      </FloatingOverlay>
    </FloatingPortal>
  );
}
