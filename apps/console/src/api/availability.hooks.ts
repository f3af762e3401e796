// The console's availability: an activity's timeslots, their changes (close, reopen, capacity) and their generation.
// Each hook wraps one operation of the API client in TanStack Query (caching, retries, polling), so pages stay thin
// and never call fetch themselves.
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import {
  changeTimeslotCapacityOperation,
  closeTimeslotOperation,
  generateTimeslotsOperation,
  listOperatorTimeslotsOperation,
  removeEmptyTimeslotsOperation,
  reopenTimeslotOperation,
  type EmptyTimeslotsRange,
  type TimeslotPattern,
} from '@backbone/contracts/browser';
import { BOOKINGS_POLL_MS, useRefreshPlaces } from './bookings.hooks.js';
import { call } from './client.js';

export function useTimeslots(activityId: string | undefined, from: string, to: string) {
  return useQuery({
    queryKey: ['timeslots', activityId, from, to],
    queryFn: ({ signal }) => call(listOperatorTimeslotsOperation, { params: { ActivityID: activityId! }, query: { From: from, To: to } }, signal),
    enabled: activityId !== undefined,
    placeholderData: keepPreviousData,
    // Partners book the same places: counts and "x left" follow like the bookings list does.
    refetchInterval: BOOKINGS_POLL_MS,
  });
}

export function useTimeslotChange() {
  const refresh = useRefreshPlaces();
  return useMutation({
    mutationFn: (change: { timeslotId: number; action: 'close' | 'reopen' } | { timeslotId: number; action: 'capacity'; capacity: number }) => {
      const params = { TimeslotID: change.timeslotId };
      switch (change.action) {
        case 'close':
          return call(closeTimeslotOperation, { params });
        case 'reopen':
          return call(reopenTimeslotOperation, { params });
        case 'capacity':
          return call(changeTimeslotCapacityOperation, { params, body: { Capacity: change.capacity } });
      }
    },
    onSettled: refresh,
  });
}

export function useGenerateTimeslots() {
  const refresh = useRefreshPlaces();
  return useMutation({
    mutationFn: ({ activityId, pattern }: { activityId: string; pattern: TimeslotPattern }) =>
      call(generateTimeslotsOperation, { params: { ActivityID: activityId }, body: pattern }),
    onSettled: (_data, _error, { pattern }) => (pattern.DryRun ? undefined : refresh()),
  });
}

/** A dry run first (nothing changes, nothing to refresh), then the removal itself. */
export function useRemoveEmptyTimeslots() {
  const refresh = useRefreshPlaces();
  return useMutation({
    mutationFn: ({ activityId, range }: { activityId: string; range: EmptyTimeslotsRange }) =>
      call(removeEmptyTimeslotsOperation, { params: { ActivityID: activityId }, body: range }),
    onSettled: (_data, _error, { range }) => (range.DryRun ? undefined : refresh()),
  });
}
