// waitlist.notified -> one 'waitlist-notified' entry whose ExtraInfo carries the waitlist entry and the booking.
import { builtInMeterEntry } from '../built-in-meter.js';
import { defineHandler } from './job-handler.js';

export const waitlistNotifiedHandler = defineHandler('waitlist.notified', async (event, ctx) => {
  await ctx.recordUsage(builtInMeterEntry('waitlist.notified', event, JSON.stringify({ WaitlistID: event.WaitlistID, MultiBookingID: event.MultiBookingID })));
});
