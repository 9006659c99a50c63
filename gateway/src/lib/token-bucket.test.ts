import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TokenBuckets } from './token-bucket';

describe('TokenBuckets', () => {
  it('allows a burst, then the rate, and says how long to wait', () => {
    const buckets = new TokenBuckets({ rate: 2, burst: 3 });
    const t = 1_000_000;
    assert.deepEqual(
      [0, 0, 0].map(() => buckets.take('k', t)),
      [0, 0, 0],
    );
    assert.equal(buckets.take('k', t), 1);
    // Half a second later one token (2/s) is back.
    assert.equal(buckets.take('k', t + 500), 0);
    assert.equal(buckets.take('k', t + 500), 1);
    // Keys do not share a bucket.
    assert.equal(buckets.take('other', t + 500), 0);
  });

  it('rounds the wait up to whole seconds for a slow rate, and rate 0 is no limit', () => {
    const slow = new TokenBuckets({ rate: 0.25, burst: 1 });
    assert.equal(slow.take('k', 0), 0);
    assert.equal(slow.take('k', 0), 4);
    const off = new TokenBuckets({ rate: 0, burst: 0 });
    for (let i = 0; i < 100; i++) assert.equal(off.take('k', 0), 0);
  });
});
