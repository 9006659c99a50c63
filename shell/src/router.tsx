import { lazy, Suspense, type ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { ROUTES, type RouteDef, type ShellPage } from './routes';
import { guard } from './guard';
import { RemotePage } from './components/remote-page';
import { Root, RouteError, NotFound, Booting } from './components/root';
import { MainLayout } from './layouts/main-layout';
import { BareLayout } from './layouts/bare-layout';
import { LoginPage } from './pages/login';
import { ResetRequestPage } from './pages/reset-request';
import { ResetPasswordPage } from './pages/reset-password';
import { ConfirmEmailPage } from './pages/confirm-email';
import { OverviewPage } from './pages/overview';

/** The checkout pages are for new customers only: their code loads when they are visited. */
const CheckoutPage = lazy(() => import('./pages/checkout').then((m) => ({ default: m.CheckoutPage })));
const CheckoutSuccessPage = lazy(() =>
  import('./pages/checkout-success').then((m) => ({ default: m.CheckoutSuccessPage })),
);

const SHELL_PAGES: Record<ShellPage, ComponentType> = {
  overview: OverviewPage,
  login: LoginPage,
  'reset-request': ResetRequestPage,
  'reset-password': ResetPasswordPage,
  'confirm-email': ConfirmEmailPage,
  'checkout-success': CheckoutSuccessPage,
  checkout: CheckoutPage,
};

/**
 * The guard (a /v1/auth/verify call) runs when the path changes, not when only the query string does:
 * grids keep their filters in the URL (?listId=, ?segmentId=) and change them without a new navigation.
 */
export function revalidateOnPathChange({
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}: {
  currentUrl: URL;
  nextUrl: URL;
  defaultShouldRevalidate: boolean;
}): boolean {
  return currentUrl.pathname === nextUrl.pathname ? false : defaultShouldRevalidate;
}

function toRoute(def: RouteDef): RouteObject {
  const page = def.page;
  const Page = 'shell' in page ? SHELL_PAGES[page.shell] : null;
  return {
    path: def.path,
    id: def.name,
    loader: ({ request }) => guard(def, new URL(request.url).pathname),
    shouldRevalidate: revalidateOnPathChange,
    element: Page ? (
      <Suspense fallback={<Booting />}>
        <Page />
      </Suspense>
    ) : 'remote' in page ? (
      <RemotePage key={def.name} remote={page.remote} module={page.module} />
    ) : null,
  };
}

export function routeObjects(): RouteObject[] {
  return [
    {
      element: <Root />,
      errorElement: <RouteError />,
      hydrateFallbackElement: <Booting />,
      children: [
        { element: <MainLayout />, children: ROUTES.filter((r) => r.layout === 'main').map(toRoute) },
        { element: <BareLayout />, children: ROUTES.filter((r) => r.layout === 'bare').map(toRoute) },
        { path: '*', element: <NotFound /> },
      ],
    },
  ];
}

export function createRouter() {
  return createBrowserRouter(routeObjects());
}
