import { Outlet } from 'react-router-dom';

/** Minimal/bare layout: content only. */
export function BareLayout() {
  return (
    <main id="main" className="min-h-screen">
      <Outlet />
    </main>
  );
}
