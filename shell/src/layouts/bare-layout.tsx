import { Outlet } from '@console/shared/router';

/** Minimal/bare layout: content only. */
export function BareLayout() {
  return (
    <main id="main" className="min-h-screen">
      <Outlet />
    </main>
  );
}
