// The console's waitlists: a timeslot's entries, and staff's add, offer, remove and book by hand. Each hook wraps one
// operation of the API client in TanStack Query, so the page stays thin and never calls fetch itself.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  addWaitlistEntryOperation,
  bookWaitlistEntryOperation,
  listTimeslotWaitlistOperation,
  offerWaitlistEntryOperation,
  removeWaitlistEntryOperation,
  type AddWaitlistEntryRequest,
} from '@backbone/contracts/browser';
import { BOOKINGS_POLL_MS, useRefreshPlaces } from './bookings.hooks.js';
import { call } from './client.js';

export function useWaitlist(timeslotId: number | undefined) {
  return useQuery({
    queryKey: ['waitlist', timeslotId],
    queryFn: ({ signal }) => call(listTimeslotWaitlistOperation, { params: { TimeslotID: timeslotId! } }, signal),
    enabled: timeslotId !== undefined,
    // Offers are made and expire in the background, and customers claim them: the list follows.
    refetchInterval: BOOKINGS_POLL_MS,
  });
}

function useRefreshWaitlist() {
  const client = useQueryClient();
  const refreshPlaces = useRefreshPlaces();
  return () => Promise.all([client.invalidateQueries({ queryKey: ['waitlist'] }), refreshPlaces()]);
}

export function useAddWaitlistEntry(timeslotId: number) {
  const refresh = useRefreshWaitlist();
  return useMutation({
    mutationFn: (entry: AddWaitlistEntryRequest) => call(addWaitlistEntryOperation, { params: { TimeslotID: timeslotId }, body: entry }),
    onSettled: refresh,
  });
}

export function useWaitlistAction() {
  const refresh = useRefreshWaitlist();
  return useMutation({
    mutationFn: ({ waitlistId, action }: { waitlistId: number; action: 'offer' | 'book' | 'remove' }) => {
      const params = { WaitlistID: waitlistId };
      switch (action) {
        case 'offer':
          return call(offerWaitlistEntryOperation, { params });
        case 'book':
          return call(bookWaitlistEntryOperation, { params });
        case 'remove':
          return call(removeWaitlistEntryOperation, { params });
      }
    },
    onSettled: refresh,
  });
}
