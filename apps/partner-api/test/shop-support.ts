// Shared set-up of the shop (booking page) API tests: an operator whose page is on, an activity with timeslots, and
// small clients for the page's operations.
import { saveBookingPage, type Pool } from '@backbone/db';
import type { Activity } from '@backbone/domain';
import { createTestTimeslot, futureDate, request, type TestTimeslot } from '@backbone/testkit';
import { createOperator, type Operator } from './support.js';

export interface ShopOperator extends Operator {
  slug: string;
}

let pages = 0;

/** An operator (Europe/Berlin) whose booking page is on, with its own slug. */
export async function createShopOperator(pool: Pool, page: { terms?: string; note?: string } = {}): Promise<ShopOperator> {
  const operator = await createOperator(pool, { activity: { name: 'Sea kayak', maxParticipants: 6, priceMinor: 4500, currency: 'EUR' } });
  pages++;
  const slug = `shop-${pages}-${operator.account.id.slice(0, 8)}`;
  const saved = await saveBookingPage(pool, operator.account.id, { enabled: true, slug, ...page });
  if (typeof saved === 'string') throw new Error(saved);
  return { ...operator, slug };
}

let slots = 0;

/** A fresh timeslot so each test reads its own counter. */
export async function freshSlot(pool: Pool, activity: Activity, capacity = 10): Promise<TestTimeslot> {
  slots++;
  return createTestTimeslot(pool, activity, { date: futureDate(20 + slots), time: '10:00', capacity });
}

export const CUSTOMER = { FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com', Phone: '+351 21 000 0000' };

export function shopClient(url: () => string, slug: string) {
  const base = `/api/v2/shop/${slug}`;
  const send = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    request(url(), method, base + path, { ...(body === undefined ? {} : { body }), ...(headers ? { headers } : {}) });
  return {
    send,
    hold: (activity: Activity, slot: { date: string; time: string }, participants = 2) =>
      send('POST', '/holds', { ActivityID: activity.activityId, Date: slot.date, Time: slot.time, Participants: participants }),
    confirm: (token: string, body: Record<string, unknown> = { Customer: CUSTOMER }) => send('POST', `/holds/${token}/confirm`, body),
    release: (token: string) => send('DELETE', `/holds/${token}`),
    booking: (token: string) => send('GET', `/bookings/${token}`),
    cancel: (token: string, body?: unknown) => send('POST', `/bookings/${token}/cancel`, body),
    move: (token: string, slot: { date: string; time: string }) => send('POST', `/bookings/${token}/move`, { Date: slot.date, Time: slot.time }),
  };
}
