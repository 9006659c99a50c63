/**
 * Every module the shell provides to the remotes and applets (ARCHITECTURE.md section 3, the shared
 * singletons), by share key, loaded the way the shell's own code loads it: one instance for the shell
 * and every remote. Keys are those of the shared-deps map (`shared/mf/index.cjs` `sharedDeps`), with the
 * subpaths the remotes import for the trailing-slash keys (`react/`, `react-dom/`);
 * shell/test/provided-modules.test.ts checks that every key is here. Importing a module this way costs nothing at
 * start-up: each loads only when a remote asks for it, or is already loaded by the shell.
 */
export const PROVIDED_MODULES: Readonly<Record<string, () => Promise<unknown>>> = {
  react: () => import('react'),
  'react/jsx-runtime': () => import('react/jsx-runtime'),
  'react/jsx-dev-runtime': () => import('react/jsx-dev-runtime'),
  'react-dom': () => import('react-dom'),
  'react-dom/client': () => import('react-dom/client'),
  'react-hot-toast': () => import('react-hot-toast'),
  '@floating-ui/react': () => import('@floating-ui/react'),
  '@tanstack/react-query': () => import('@tanstack/react-query'),
  '@console/shared/config': () => import('@console/shared/config'),
  '@console/shared/router': () => import('@console/shared/router'),
  '@console/shared/access': () => import('@console/shared/access'),
  '@console/shared/contracts/core': () => import('@console/shared/contracts/core'),
  '@console/shared/contracts': () => import('@console/shared/contracts'),
  '@console/shared/api': () => import('@console/shared/api'),
  '@console/shared/session': () => import('@console/shared/session'),
  '@console/shared/query': () => import('@console/shared/query'),
  '@console/shared/ui': () => import('@console/shared/ui'),
  '@console/shared/overlays': () => import('@console/shared/overlays'),
  '@console/shared/html': () => import('@console/shared/html'),
  '@console/shared/lists': () => import('@console/shared/lists'),
  '@console/shared/layout': () => import('@console/shared/layout'),
  '@console/shared/billing': () => import('@console/shared/billing'),
  '@console/shared/format': () => import('@console/shared/format'),
  '@console/shared/charts': () => import('@console/shared/charts'),
  '@console/shared/passwords': () => import('@console/shared/passwords'),
  '@console/shared/password-meter': () => import('@console/shared/password-meter'),
};
