// The console's bookings: the list, one booking, its history and the operator's changes of it, the day's manifest and
// the point-of-sale sale.
// Each hook wraps one operation of the API client in TanStack Query (caching, retries, polling), so pages stay thin
// and never call fetch themselves.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  cancelOperatorBookingOperation,
  changeOperatorBookingOperation,
  checkInOperatorBookingOperation,
  createSaleOperation,
  getOperatorBookingOperation,
  getOperatorManifestOperation,
  listOperatorBookingHistoryOperation,
  listOperatorBookingsOperation,
  rescheduleOperatorBookingOperation,
  undoOperatorCheckInOperation,
  type BookingDetail,
  type BookingListQuery,
  type OperatorBookingChange,
  type SaleRequest,
} from '@backbone/contracts/browser';
import { call } from './client.js';

/**
 * How often an open bookings page asks for its first page again: a new booking (a partner's included) shows within
 * this plus one request, well inside the 2 seconds promised. Server-sent events would need a listener per open page
 * and a fan-out from the outbox; one small indexed query a second per open page is cheaper at this scale.
 */
export const BOOKINGS_POLL_MS = 1000;

export function useBookings(query: Partial<BookingListQuery>) {
  return useQuery({
    queryKey: ['bookings', query],
    queryFn: ({ signal }) => call(listOperatorBookingsOperation, { query }, signal),
    placeholderData: keepPreviousData,
    // Only the first page changes when bookings arrive (newest first); later pages are fixed by their cursor.
    refetchInterval: query.Cursor ? false : BOOKINGS_POLL_MS,
  });
}

export function useBooking(reference: string | null) {
  return useQuery({
    queryKey: ['booking', reference],
    queryFn: ({ signal }) => call(getOperatorBookingOperation, { params: { Reference: reference! } }, signal),
    enabled: reference !== null,
    // A partner may cancel or change the open booking at any time: the panel follows like the list does.
    refetchInterval: BOOKINGS_POLL_MS,
  });
}

/** After any change of places (a sale, a timeslot change) the timeslots and bookings shown are stale. */
export function useRefreshPlaces() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: ['timeslots'] }),
      client.invalidateQueries({ queryKey: ['bookings'] }),
      client.invalidateQueries({ queryKey: ['booking'] }),
    ]);
}

/**
 * The operator's changes of one booking (cancel, reschedule, edit, check-in and its undo). Each answers the booking as it
 * is now, which the open panel shows at once; the lists, places, manifest and history that it touches are asked again.
 */
export type BookingAction =
  | { action: 'cancel'; reason?: string }
  | { action: 'reschedule'; date: string; time: string; activityId?: string }
  | { action: 'change'; changes: OperatorBookingChange }
  | { action: 'check-in'; participants?: number }
  | { action: 'undo-check-in' };

export function useBookingAction(reference: string) {
  const client = useQueryClient();
  const refresh = useRefreshPlaces();
  return useMutation({
    mutationFn: (change: BookingAction): Promise<BookingDetail> => {
      const params = { Reference: reference };
      switch (change.action) {
        case 'cancel':
          return call(cancelOperatorBookingOperation, { params, body: change.reason ? { Reason: change.reason } : {} });
        case 'reschedule':
          return call(rescheduleOperatorBookingOperation, {
            params,
            body: { Date: change.date, Time: change.time, ...(change.activityId ? { ActivityID: change.activityId } : {}) },
          });
        case 'change':
          return call(changeOperatorBookingOperation, { params, body: change.changes });
        case 'check-in':
          return call(checkInOperatorBookingOperation, { params, body: change.participants !== undefined ? { Participants: change.participants } : {} });
        case 'undo-check-in':
          return call(undoOperatorCheckInOperation, { params });
      }
    },
    onSuccess: (booking) => client.setQueryData(['booking', reference], booking),
    onSettled: () =>
      Promise.all([refresh(), client.invalidateQueries({ queryKey: ['manifest'] }), client.invalidateQueries({ queryKey: ['history', reference] })]),
  });
}

export function useCreateSale() {
  const refresh = useRefreshPlaces();
  return useMutation({
    // One key per submitted form: a retried request (a lost answer) cannot sell twice.
    mutationFn: ({ sale, idempotencyKey }: { sale: SaleRequest; idempotencyKey: string }) =>
      call(createSaleOperation, { body: sale }, undefined, { 'Idempotency-Key': idempotencyKey }),
    onSettled: refresh,
  });
}

/** The day's manifest: polled like the bookings, so a partner's booking or cancellation shows at the door. */
export function useManifest(query: { Date: string; ActivityID?: string | undefined }) {
  return useQuery({
    queryKey: ['manifest', query],
    queryFn: ({ signal }) => call(getOperatorManifestOperation, { query }, signal),
    placeholderData: keepPreviousData,
    refetchInterval: BOOKINGS_POLL_MS,
  });
}

export function useBookingHistory(reference: string) {
  return useQuery({
    queryKey: ['history', reference],
    queryFn: ({ signal }) => call(listOperatorBookingHistoryOperation, { params: { Reference: reference } }, signal),
    refetchInterval: BOOKINGS_POLL_MS,
  });
}
