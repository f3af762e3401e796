// The account's booking page settings: read by owners and staff, changed by owners.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getOperatorBookingPageOperation, updateOperatorBookingPageOperation, type BookingPageChanges } from '@backbone/contracts/browser';
import { call } from './client.js';

export function useBookingPage() {
  return useQuery({ queryKey: ['booking-page'], queryFn: ({ signal }) => call(getOperatorBookingPageOperation, {}, signal) });
}

export function useUpdateBookingPage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (changes: BookingPageChanges) => call(updateOperatorBookingPageOperation, { body: changes }),
    onSuccess: (page) => client.setQueryData(['booking-page'], page),
  });
}
