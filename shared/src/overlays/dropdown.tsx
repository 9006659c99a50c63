import { useRef, useState, type MouseEvent, type ReactElement, type ReactNode } from 'react';
import {
  FloatingFocusManager,
  FloatingPortal,
  autoUpdate,
  flip,
  offset,
  safePolygon,
  shift,
  useClick,
  useDismiss,
  useFloating,
  useHover,
  useInteractions,
  useListNavigation,
  useRole,
} from '@floating-ui/react';
import { LockIcon } from '@console/shared/ui';
import { DROPDOWN_DELAY_MS, DROPDOWN_OFFSET, DROPDOWN_PLACEMENT } from '@console/shared/ui';

export interface DropdownItem {
  label: ReactNode;
  key?: string;
  /** A link item. Rendered with `renderLink` when given (router links), else as <a href>. */
  href?: string;
  /** Open `href` in a new tab (external pages such as the Developer Docs). */
  external?: boolean;
  /** Called when the item is chosen (after the menu closed). Works with or without `href`. */
  onSelect?: () => void;
  /** A feature the plan lacks: shows a lock icon (`onSelect` typically opens the upgrade dialog). */
  locked?: boolean;
  disabled?: boolean;
  danger?: boolean;
  icon?: ReactNode;
}

/** Props a custom link must spread onto its element: ref, role, tabIndex, class and the menu's handlers. */
export type DropdownLinkProps = Record<string, unknown> & {
  ref: (node: HTMLElement | null) => void;
  role: 'menuitem';
  tabIndex: number;
  className: string;
};

export interface DropdownProps {
  /** What the trigger button shows. */
  trigger: ReactNode | ((state: { open: boolean }) => ReactNode);
  /** Accessible name of the trigger button (when its content is not text). */
  label?: string;
  items: readonly DropdownItem[];
  /** 'bottom' (default), or aligned to the trigger's end/start edge. */
  placement?: 'bottom' | 'bottom-end' | 'bottom-start';
  /** Menu width in px (the profile menu uses PROFILE_MENU_WIDTH). */
  width?: number;
  /** Render link items with the app's router link. */
  renderLink?: (href: string, children: ReactNode, props: DropdownLinkProps) => ReactElement;
  /** Content above the items (not part of the keyboard list). */
  header?: ReactNode;
  triggerClassName?: string;
  menuClassName?: string;
}

const ITEM =
  'flex w-full items-center gap-2 px-4 py-2 text-left text-sm outline-none hover:bg-slate-50 focus:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-50';

/**
 * A menu on a trigger button: opens after 300 ms of hover or on click (toggles), offset 10 px,
 * arrow keys move between items, Escape and outside click close, focus returns to the trigger.
 */
export function Dropdown({
  trigger,
  label,
  items,
  placement = DROPDOWN_PLACEMENT,
  width,
  renderLink,
  header,
  triggerClassName = 'flex items-center rounded-control p-1 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600',
  menuClassName,
}: DropdownProps) {
  const [open, setOpen] = useState(false);
  const [openedByHover, setOpenedByHover] = useState(false);
  const [activeIndex, setActiveIndex] = useState<number | null>(null);
  const listRef = useRef<Array<HTMLElement | null>>([]);

  const { refs, floatingStyles, context } = useFloating({
    open,
    onOpenChange: (next, _event, reason) => {
      if (next) setOpenedByHover(reason === 'hover' || reason === 'safe-polygon');
      setOpen(next);
    },
    placement,
    middleware: [offset(DROPDOWN_OFFSET), flip({ padding: 8 }), shift({ padding: 8 })],
    whileElementsMounted: autoUpdate,
  });

  const hover = useHover(context, { delay: { open: DROPDOWN_DELAY_MS }, handleClose: safePolygon(), mouseOnly: true });
  const click = useClick(context);
  const dismiss = useDismiss(context);
  const role = useRole(context, { role: 'menu' });
  const listNavigation = useListNavigation(context, { listRef, activeIndex, onNavigate: setActiveIndex, loop: true });
  const { getReferenceProps, getFloatingProps, getItemProps } = useInteractions([
    hover,
    click,
    dismiss,
    role,
    listNavigation,
  ]);

  const choose = (item: DropdownItem) => {
    setOpen(false);
    item.onSelect?.();
  };

  const renderItem = (item: DropdownItem, index: number) => {
    const tone = item.danger ? 'text-red-700' : 'text-slate-700';
    const className = `${ITEM} ${tone}`;
    const content = (
      <>
        {item.icon}
        <span className="min-w-0 flex-1 truncate">{item.label}</span>
        {item.locked && <LockIcon className="h-4 w-4 text-slate-400" />}
      </>
    );
    const ref = (node: HTMLElement | null) => {
      listRef.current[index] = node;
    };
    const common = { ref, role: 'menuitem' as const, tabIndex: activeIndex === index ? 0 : -1, className };

    if (item.href !== undefined && !item.disabled) {
      const props: DropdownLinkProps = {
        ...getItemProps({ onClick: (_event: MouseEvent<HTMLElement>) => choose(item) }),
        ...common,
        'data-locked': item.locked ? 'true' : undefined,
      };
      if (renderLink && !item.external) return renderLink(item.href, content, props);
      return (
        <a
          {...props}
          href={item.href}
          target={item.external ? '_blank' : undefined}
          rel={item.external ? 'noopener noreferrer' : undefined}
        >
          {content}
        </a>
      );
    }
    return (
      <button
        type="button"
        {...getItemProps({ onClick: () => choose(item) })}
        {...common}
        disabled={item.disabled}
        data-locked={item.locked ? 'true' : undefined}
      >
        {content}
      </button>
    );
  };

  return (
    <>
      <button
        type="button"
        ref={refs.setReference}
        aria-label={label}
        className={triggerClassName}
        data-open={open ? 'true' : undefined}
        {...getReferenceProps()}
      >
        {typeof trigger === 'function' ? trigger({ open }) : trigger}
      </button>
      {open && (
        <FloatingPortal>
          <FloatingFocusManager context={context} modal={false} initialFocus={openedByHover ? -1 : 0}>
            <div
              ref={refs.setFloating}
              style={{ ...floatingStyles, width }}
              className={[
                'z-40 overflow-hidden rounded-control border border-slate-200 bg-white py-1 shadow-panel focus:outline-none',
                width === undefined ? 'min-w-44' : '',
                menuClassName,
              ]
                .filter(Boolean)
                .join(' ')}
              {...getFloatingProps()}
            >
              {header !== undefined && <div role="presentation">{header}</div>}
              {items.map((item, index) => (
                <div key={item.key ?? index} role="none">
                  {renderItem(item, index)}
                </div>
              ))}
            </div>
          </FloatingFocusManager>
        </FloatingPortal>
      )}
    </>
  );
}
