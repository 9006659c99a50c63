import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { installErrorHandling } from '../errors';

describe('error handler', () => {
  it('turns an unexpected failure into a plain 500 without internals', async () => {
    const app = Fastify({ logger: false });
    installErrorHandling(app);
    app.get('/boom', async () => {
      throw new Error('secret internals at /srv/app.ts:42');
    });
    const r = await app.inject({ method: 'GET', url: '/boom' });
    assert.equal(r.statusCode, 500);
    assert.deepEqual(r.json(), { message: 'Something went wrong on our side. Please try again later.' });
    await app.close();
  });
});
