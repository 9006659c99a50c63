/**
 * The shell's federation runtime, started when the first remote is registered or loaded, never on the
 * sign-in screen (docs/frontend.md, "The shell hosts through the runtime API"). The shell is an ordinary
 * bundle: it provides its own modules to the share scope (PROVIDED_MODULES), as singletons with the
 * loaded-first strategy (ARCHITECTURE.md section 3), and marks them loaded, so every remote and applet
 * uses the shell's copy (the shell's own code always does) rather than one of its own.
 */
import { init, loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { PROVIDED_MODULES } from './provided-modules';
import { sharedVersionOf, type SharedVersion } from './share-config';

declare const __CONSOLE_SHARED__: Record<string, SharedVersion> | undefined;

/** The shared-deps map's versions compiled into the shell; none outside a build (unit tests). */
const versions: Record<string, SharedVersion> = typeof __CONSOLE_SHARED__ === 'undefined' ? {} : __CONSOLE_SHARED__;

function providedShared() {
  return Object.fromEntries(
    Object.entries(PROVIDED_MODULES).flatMap(([key, load]) => {
      const v = sharedVersionOf(key, versions);
      if (!v) return [];
      const entry = {
        version: v.version,
        shareConfig: { singleton: true, requiredVersion: v.requiredVersion },
        loaded: true,
        get: () => load().then((module) => () => module),
      };
      return [[key, entry]];
    }),
  );
}

init({ name: 'shell', remotes: [], shared: providedShared(), shareStrategy: 'loaded-first' });

export { loadRemote, registerRemotes };
