import { lazy, Suspense, type ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from '@console/shared/router';
import { ROUTES, type RouteDef, type ShellPage } from './routes';
import { guard } from './guard';
import { RemotePage } from './components/remote-page';
import { Root, RouteError, NotFound, Booting } from './components/root';
import { BareLayout } from './layouts/bare-layout';
import { LoginPage } from './pages/login';
import { ResetRequestPage } from './pages/reset-request';
import { ResetPasswordPage } from './pages/reset-password';

/**
 * The shell's start-up holds the sign-in screens only. The main layout (sidebar, header menus: the
 * overlays entry and floating-ui) loads after sign-in, and pages that read data load with the query
 * cache's provider (TanStack Query), so the sign-in screen downloads neither.
 */
const MainLayout = lazy(() => import('./layouts/main-layout').then((m) => ({ default: m.MainLayout })));

function withQueries<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => {
    const [module, { QueryProvider }] = await Promise.all([load(), import('@console/shared/query')]);
    const Page: ComponentType = module[name];
    return {
      default: () => (
        <QueryProvider>
          <Page />
        </QueryProvider>
      ),
    };
  });
}

const OverviewPage = withQueries(() => import('./pages/overview'), 'OverviewPage');
const ConfirmEmailPage = withQueries(() => import('./pages/confirm-email'), 'ConfirmEmailPage');
const CheckoutPage = withQueries(() => import('./pages/checkout'), 'CheckoutPage');
const CheckoutSuccessPage = withQueries(() => import('./pages/checkout-success'), 'CheckoutSuccessPage');
const InvitationPage = withQueries(() => import('./pages/invitation'), 'InvitationPage');
const SignInLinkPage = lazy(() => import('./pages/sign-in-link').then((m) => ({ default: m.SignInLinkPage })));
const AppletPage = withQueries(() => import('./pages/applet'), 'AppletPage');

const SHELL_PAGES: Record<ShellPage, ComponentType> = {
  overview: OverviewPage,
  login: LoginPage,
  'reset-request': ResetRequestPage,
  'reset-password': ResetPasswordPage,
  'confirm-email': ConfirmEmailPage,
  'checkout-success': CheckoutSuccessPage,
  checkout: CheckoutPage,
  invitation: InvitationPage,
  'sign-in-link': SignInLinkPage,
  applet: AppletPage,
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
        {
          element: (
            <Suspense fallback={<Booting />}>
              <MainLayout />
            </Suspense>
          ),
          children: ROUTES.filter((r) => r.layout === 'main').map(toRoute),
        },
        { element: <BareLayout />, children: ROUTES.filter((r) => r.layout === 'bare').map(toRoute) },
        { path: '*', element: <NotFound /> },
      ],
    },
  ];
}

export function createRouter() {
  return createBrowserRouter(routeObjects());
}
