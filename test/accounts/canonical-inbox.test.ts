// @store-independent
import { describe, expect, it } from 'vitest';
import { canonicalInbox } from '../../src/accounts/email.js';

/** The inbox an address reaches, as the caps count it: one inbox, however its address is spelled. */
describe('canonicalInbox', () => {
  it.each([
    ['Carol@Example.com', 'carol@example.com'],
    ['carol+k1@example.com', 'carol@example.com'],
    ['carol+k1+k2@example.com', 'carol@example.com'],
    // Only the providers known to ignore dots lose them.
    ['c.a.r.o.l@example.com', 'c.a.r.o.l@example.com'],
    ['c.a.r.o.l@gmail.com', 'carol@gmail.com'],
    ['C.Arol+news@GoogleMail.com', 'carol@gmail.com'],
    [' carol@gmail.com ', 'carol@gmail.com'],
    // A local part that is only a tag is kept as it is, rather than emptied.
    ['+k1@example.com', '+k1@example.com'],
  ])('%s reaches %s', (address, inbox) => {
    expect(canonicalInbox(address)).toBe(inbox);
  });
});
