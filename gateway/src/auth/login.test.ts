import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ErrorBody, LOGINS, startGateway, type TestGateway } from '../../test/helpers';

let gw: TestGateway;
before(async () => {
  gw = await startGateway();
});
after(() => gw.close());

describe('POST /v1/auth/login', () => {
  it('returns a token for every seeded login', async () => {
    for (const who of Object.keys(LOGINS) as (keyof typeof LOGINS)[]) {
      const r = await gw.post<{ token: string }>('/v1/auth/login', LOGINS[who]);
      assert.equal(r.status, 200, `${who}: ${r.text}`);
      assert.match(r.body.token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
    }
  });

  it('accepts the e-mail in any case and with surrounding spaces', async () => {
    const r = await gw.post('/v1/auth/login', { email: '  Owner@ACME.test ', password: LOGINS.acmeOwner.password });
    assert.equal(r.status, 200, r.text);
  });

  it('answers a wrong password and an unknown e-mail identically', async () => {
    const wrong = await gw.post<ErrorBody>('/v1/auth/login', {
      email: 'staff@acme.test',
      password: 'not-the-password',
    });
    const unknown = await gw.post<ErrorBody>('/v1/auth/login', {
      email: 'nobody@acme.test',
      password: 'not-the-password',
    });
    assert.equal(wrong.status, 401);
    assert.equal(unknown.status, 401);
    assert.deepEqual(wrong.body, { message: 'Invalid credentials, please try again.' });
    assert.equal(unknown.text, wrong.text);
    assert.equal(unknown.headers.get('content-type'), wrong.headers.get('content-type'));
  });

  it('spends comparable time on an unknown e-mail (a dummy hash is checked)', async () => {
    const time = async (email: string) => {
      const t = performance.now();
      await gw.post('/v1/auth/login', { email, password: 'another-wrong-password' });
      return performance.now() - t;
    };
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      known.push(await time('owner@lab.test'));
      unknown.push(await time(`ghost${i}@lab.test`));
    }
    // Without the dummy hash an unknown e-mail answers many times faster than an argon2 check.
    assert.ok(median(unknown) > median(known) * 0.4, `known ${known.join(',')} unknown ${unknown.join(',')}`);
  });

  it('refuses a login body with missing or malformed fields with field errors', async () => {
    const r = await gw.post<ErrorBody>('/v1/auth/login', { email: 'not-an-email' });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body.errors?.email, ['Enter a valid e-mail address.']);
    assert.deepEqual(r.body.errors?.password, ['This field is required.']);
  });
});
