/**
 * Runtime configuration, read by the shell at boot from /config/remotes.json (one file per
 * environment), so URLs are bound at run time, not build time.
 */
export interface RemoteEntry {
  /** Address of the remote's mf-manifest.json. */
  entry: string;
  /** Who may download it: 'tenant' areas or the 'admin' area. */
  audience: 'tenant' | 'admin';
}

export interface RuntimeConfig {
  gatewayUrl: string;
  docsUrl: string;
  remotes: Record<string, RemoteEntry>;
  supportWidgetUrl: string | null;
  experimentalPrefix: string;
}

const KEY = '__consoleRuntimeConfig';
type WithConfig = typeof globalThis & { [KEY]?: RuntimeConfig };

export const DEFAULT_CONFIG: RuntimeConfig = {
  gatewayUrl: 'http://localhost:4000',
  docsUrl: 'http://localhost:4000/docs',
  remotes: {},
  supportWidgetUrl: null,
  experimentalPrefix: 'lab',
};

export function setRuntimeConfig(config: RuntimeConfig): void {
  (globalThis as WithConfig)[KEY] = config;
}

export function runtimeConfig(): RuntimeConfig {
  return (globalThis as WithConfig)[KEY] ?? DEFAULT_CONFIG;
}
export * from './events';
