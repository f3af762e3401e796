// A file answer sent from the booking page: the partner API's upload (same store, type sniffing, size and quota),
// owned by the live hold it was sent for, which alone can take it with its confirm.
import type { UploadedFile } from '@backbone/contracts';
import { findBooking } from '@backbone/db';
import { assertLiveHold, notFound } from '@backbone/domain';
import { stateOf } from './booking-lifecycle.js';
import { uploadFile, type FileDeps, type FileUpload } from './files.js';
import { bookingOfToken, type ShopCaller } from './shop-bookings.js';

export async function uploadShopFile(
  deps: FileDeps,
  caller: ShopCaller,
  token: string,
  upload: Omit<FileUpload, 'accountId' | 'uploader' | 'apiKeyId'>,
): Promise<UploadedFile> {
  const ref = await bookingOfToken(deps.pool, caller.page, token);
  const booking = await findBooking(deps.pool, ref.owner, ref.reference);
  if (!booking) throw notFound('Booking');
  assertLiveHold(stateOf(booking), booking.now);
  return uploadFile(deps, { ...upload, accountId: caller.page.accountId, uploader: { holdBookingId: ref.bookingId }, apiKeyId: null });
}
