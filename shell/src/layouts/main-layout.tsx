import { useState } from 'react';
import { Outlet } from '@console/shared/router';
import {
  FloatingFocusManager,
  FloatingOverlay,
  FloatingPortal,
  useDismiss,
  useFloating,
  useInteractions,
  useRole,
} from '@floating-ui/react';
import { runtimeConfig } from '@console/shared/config';
import { useConsole } from '@console/shared/session';
import { sidebarFor } from '../menu';
import { withApps } from '../apps/apps-menu';
import { useApps } from '../apps/apps-store';
import { Sidebar } from '../components/sidebar';
import { Header } from '../components/header';
import { PopupArea } from '../components/popup-area';

/** Default/main layout: fixed desktop sidebar, mobile slide-in sidebar, top header, popup area. */
export function MainLayout() {
  const user = useConsole((s) => s.user);
  const [mobileOpen, setMobileOpen] = useState(false);
  const { apps } = useApps(user);
  const groups = user ? withApps(sidebarFor(user, runtimeConfig().docsUrl), apps) : null;
  const { refs, context } = useFloating({ open: mobileOpen, onOpenChange: setMobileOpen });
  const { getFloatingProps } = useInteractions([useDismiss(context), useRole(context, { role: 'dialog' })]);

  return (
    <div className="min-h-screen">
      {groups && (
        // Hidden below lg by a media rule alone: with `hidden lg:block`, a remote's style sheet (loaded
        // after the shell's, with its own `.hidden` and no `lg:block`) hid the sidebar on wide screens.
        <aside className="fixed inset-y-0 left-0 z-30 w-64 max-lg:hidden" data-testid="desktop-sidebar">
          <Sidebar groups={groups} />
        </aside>
      )}
      {groups && mobileOpen && (
        <FloatingPortal>
          <FloatingOverlay lockScroll className="z-40 bg-slate-900/50 lg:hidden">
            <FloatingFocusManager context={context}>
              <div
                ref={refs.setFloating}
                aria-label="Navigation"
                className="fixed inset-y-0 left-0 w-72 shadow-xl"
                {...getFloatingProps()}
              >
                <Sidebar groups={groups} onNavigate={() => setMobileOpen(false)} />
              </div>
            </FloatingFocusManager>
          </FloatingOverlay>
        </FloatingPortal>
      )}
      <div className={groups ? 'lg:pl-64' : ''}>
        <Header onOpenSidebar={groups ? () => setMobileOpen(true) : null} />
        <main id="main" className="mx-auto max-w-7xl px-4 py-6 sm:px-6 lg:px-8">
          <Outlet />
        </main>
      </div>
      <PopupArea />
    </div>
  );
}
