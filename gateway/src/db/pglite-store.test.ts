// Embedded PGlite's memory: shared_buffers from PGLITE_SHARED_BUFFERS (default 16MB), checked when
// the configuration loads.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { loadConfig } from '../config';
import { openPglite } from './pglite-store.mjs';

it('opens PGlite with the configured shared_buffers', async () => {
  const client = await openPglite('memory://', { sharedBuffers: loadConfig({}).pgliteSharedBuffers });
  try {
    const { rows } = await client.query<{ shared_buffers: string }>('show shared_buffers');
    assert.equal(rows[0]?.shared_buffers, '16MB');
  } finally {
    await client.close();
  }
});

it('PGLITE_SHARED_BUFFERS takes a size in kB, MB or GB, and refuses anything else', () => {
  assert.equal(loadConfig({ PGLITE_SHARED_BUFFERS: '64MB' }).pgliteSharedBuffers, '64MB');
  for (const bad of ['64', '64mb', '0MB', '1TB', '16 MB; drop']) {
    assert.throws(() => loadConfig({ PGLITE_SHARED_BUFFERS: bad }), /PGLITE_SHARED_BUFFERS must be a size/);
  }
});
