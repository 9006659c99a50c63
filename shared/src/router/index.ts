/**
 * The router, shared as one singleton: every bundle imports routing from here, never from
 * react-router-dom (eslint forbids it), so all bundles use one router and one context.
 *
 * Why a facade and not react-router-dom itself as the shared module: a shared module is kept whole
 * (another bundle may use any of its exports), and react-router 7 whole is large (bench/README.md,
 * "The console's bundles"), its server-side half (cookies, sessions, request handlers) included, which
 * the console never uses. Sharing
 * this module instead lets webpack keep only what is listed here. A screen that needs another export
 * adds it to this list.
 */
export {
  Link,
  MemoryRouter,
  Navigate,
  NavLink,
  Outlet,
  Route,
  RouterProvider,
  Routes,
  createBrowserRouter,
  createMemoryRouter,
  generatePath,
  isRouteErrorResponse,
  redirect,
  useBlocker,
  useLocation,
  useMatch,
  useNavigate,
  useParams,
  useRouteError,
  useSearchParams,
  type RouteObject,
} from 'react-router-dom';
