// Spec section 7: the gateway reads applet manifests only from public addresses (outside tests).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPrivateAddress } from './public-address';

describe('private addresses', () => {
  it('private, loopback, link-local and reserved ranges are refused', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      // IPv4-compatible (RFC 4291 2.5.5.1), SIIT (RFC 6145), 6to4 (RFC 3056) and Teredo (RFC 4380) forms.
      '::7f00:1',
      '::127.0.0.1',
      '::ffff:0:7f00:1',
      '::ffff:0:127.0.0.1',
      '2002:7f00:1::',
      '2002:a00:1::1',
      '2001::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '10.0.0.1',
      '10.255.255.255',
      'fc00::1',
      'fdff:ffff::1',
      'fe80::1',
      'febf:ffff::1',
      '64:ff9b::7f00:1',
      '2001:db8::1',
      'ff02::1',
      '100::1',
      '198.18.0.1',
      '255.255.255.255',
      'not an ip',
      '',
    ]) {
      assert.equal(isPrivateAddress(address), true, address);
    }
  });

  it('public addresses pass', () => {
    for (const address of [
      '8.8.8.8',
      '172.32.0.1',
      '1.1.1.1',
      '2606:4700:4700::1111',
      '2a00:1450:4001:80b::200e',
      '::ffff:8.8.8.8',
    ]) {
      assert.equal(isPrivateAddress(address), false, address);
    }
  });
});
