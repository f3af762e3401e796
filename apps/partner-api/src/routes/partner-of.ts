// The owner whose bookings an ota key may read and change: its partner, within its account. A key without a partner
// (none is, once the migration gave every ota key one) would see nothing rather than everything.
import type { BookingOwner } from '@backbone/db';
import type { AuthContext } from '@backbone/http';

const NO_PARTNER = '00000000-0000-0000-0000-000000000000';

export function partnerOf(auth: AuthContext): BookingOwner & { partnerId: string; test: boolean } {
  // A test key's bookings and a live key's are walled apart like two partners' (the test flag in every lookup).
  return { accountId: auth.accountId, partnerId: auth.partnerId ?? NO_PARTNER, test: auth.test };
}
