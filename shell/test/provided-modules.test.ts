import path from 'node:path';
import { PROVIDED_MODULES } from '../src/federation/provided-modules';
import { sharedVersionOf } from '../src/federation/share-config';

// The build's shared-deps map (shared/mf/index.cjs), as the shell's build compiles it in.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { hostShared } = require('@console/shared/mf') as {
  hostShared: (dir: string) => Record<string, { version: string; requiredVersion: string }>;
};
const deps = hostShared(path.resolve(__dirname, '..'));

describe('the modules the shell provides to remotes', () => {
  it('provides every key of the shared-deps map, and the subpaths remotes import under a trailing-slash key', () => {
    const provided = Object.keys(PROVIDED_MODULES);
    const exact = Object.keys(deps).filter((key) => !key.endsWith('/'));
    expect(exact.filter((key) => !provided.includes(key))).toEqual([]);
    for (const subpath of ['react/jsx-runtime', 'react/jsx-dev-runtime', 'react-dom/client']) {
      expect(provided).toContain(subpath);
    }
  });

  it('provides nothing the map does not share, each with the version the build recorded', () => {
    for (const key of Object.keys(PROVIDED_MODULES)) {
      const v = sharedVersionOf(key, deps);
      expect(v).not.toBeNull();
      expect(v?.requiredVersion).toBe(`^${v?.version}`);
    }
    expect(sharedVersionOf('react/jsx-runtime', deps)).toEqual(deps['react/']);
    expect(sharedVersionOf('left-pad', deps)).toBeNull();
  });
});
