import { describe, expect, it } from 'vitest';
import { rateLimitClient } from '../../../src/platform/security/clientAddress.js';

describe('rate limits count a client by the address block it controls', () => {
  it('an IPv4 address, plain or IPv4-mapped, as it is', () => {
    expect(rateLimitClient('203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitClient('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitClient('::FFFF:203.0.113.7')).toBe('203.0.113.7');
  });

  it('an IPv6 address by its /64, however it is written', () => {
    const block = rateLimitClient('2001:db8:1:2::1');
    expect(block).toBe('2001:db8:1:2::/64');
    expect(rateLimitClient('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe(block);
    expect(rateLimitClient('2001:DB8:1:2:abcd::9')).toBe(block);
    expect(rateLimitClient('2001:db8:1:2::1%eth0')).toBe(block);
    expect(rateLimitClient('2001:db8:1:3::1')).not.toBe(block);
    expect(rateLimitClient('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitClient('64:ff9b::203.0.113.7')).toBe('64:ff9b:0:0::/64');
  });

  it('anything that is no address as given', () => {
    expect(rateLimitClient('')).toBe('');
    expect(rateLimitClient('unknown')).toBe('unknown');
  });
});
