// The console's data hooks: each wraps one operation of the API client in TanStack Query (caching, retries, polling),
// so pages stay thin and never call fetch themselves.
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  getOperatorBookingOperation,
  getOperatorSessionOperation,
  listOperatorActivitiesOperation,
  listOperatorBookingsOperation,
  signInOperation,
  signOutOperation,
  createSaleOperation,
  listOperatorTimeslotsOperation,
  closeTimeslotOperation,
  reopenTimeslotOperation,
  changeTimeslotCapacityOperation,
  listOperatorKeysOperation,
  createOperatorKeyOperation,
  revokeOperatorKeyOperation,
  getOperatorUsageOperation,
  listFailedEventsOperation,
  replayFailedEventOperation,
  createOperatorActivityOperation,
  editOperatorActivityOperation,
  listOperatorQuestionsOperation,
  addOperatorQuestionOperation,
  generateTimeslotsOperation,
  listOperatorUsersOperation,
  createOperatorUserOperation,
  disableOperatorUserOperation,
  operatorMay,
  type OperatorOperationId,
  cancelOperatorBookingOperation,
  rescheduleOperatorBookingOperation,
  changeOperatorBookingOperation,
  checkInOperatorBookingOperation,
  undoOperatorCheckInOperation,
  getOperatorManifestOperation,
  listOperatorBookingHistoryOperation,
  getOperatorSalesReportOperation,
  listOperatorAuditOperation,
  type AuditAction,
  type BookingDetail,
  type OperatorBookingChange,
  type NewOperatorUser,
  type ActivityChanges,
  type NewOperatorActivity,
  type NewQuestion,
  type TimeslotPattern,
  type BookingListQuery,
  type NewKey,
  type SaleRequest,
} from '@backbone/contracts/browser';
import { ApiProblem, call } from './client.js';

/**
 * How often an open bookings page asks for its first page again: a new booking (a partner's included) shows within
 * this plus one request, well inside the 2 seconds promised. Server-sent events would need a listener per open page
 * and a fan-out from the outbox; one small indexed query a second per open page is cheaper at this scale.
 */
export const BOOKINGS_POLL_MS = 1000;

export function useSession() {
  return useQuery({
    queryKey: ['session'],
    queryFn: ({ signal }) => call(getOperatorSessionOperation, {}, signal),
    retry: (count, error) => !(error instanceof ApiProblem && error.status < 500) && count < 2,
    staleTime: 60_000,
  });
}

/**
 * Whether the signed-in user's role may call an operation (the contracts' permission table): pages hide what the
 * role cannot do instead of offering a button that answers 403.
 */
export function useMay(): (operationId: OperatorOperationId) => boolean {
  const session = useSession();
  const role = session.data?.Role;
  return (operationId) => role !== undefined && operatorMay(role, operationId);
}

export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (credentials: { Email: string; Password: string }) => call(signInOperation, { body: credentials }),
    onSuccess: () => client.resetQueries(),
  });
}

export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call(signOutOperation, {}),
    // Every cached answer belonged to the session: drop them all and ask again, which finds no session (sign-in page).
    onSettled: () => client.resetQueries(),
  });
}

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

export function useActivities() {
  return useQuery({
    queryKey: ['activities'],
    queryFn: ({ signal }) => call(listOperatorActivitiesOperation, {}, signal),
    staleTime: 30_000,
  });
}

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

/** After any change of places (a sale, a timeslot change) the timeslots and bookings shown are stale. */
function useRefreshPlaces() {
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
  | { action: 'reschedule'; date: string; time: string }
  | { action: 'change'; changes: OperatorBookingChange }
  | { action: 'check-in' }
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
          return call(rescheduleOperatorBookingOperation, { params, body: { Date: change.date, Time: change.time } });
        case 'change':
          return call(changeOperatorBookingOperation, { params, body: change.changes });
        case 'check-in':
          return call(checkInOperatorBookingOperation, { params });
        case 'undo-check-in':
          return call(undoOperatorCheckInOperation, { params });
      }
    },
    onSuccess: (booking) => client.setQueryData(['booking', reference], booking),
    onSettled: () =>
      Promise.all([refresh(), client.invalidateQueries({ queryKey: ['manifest'] }), client.invalidateQueries({ queryKey: ['history', reference] })]),
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

export function useCreateSale() {
  const refresh = useRefreshPlaces();
  return useMutation({
    // One key per submitted form: a retried request (a lost answer) cannot sell twice.
    mutationFn: ({ sale, idempotencyKey }: { sale: SaleRequest; idempotencyKey: string }) =>
      call(createSaleOperation, { body: sale }, undefined, { 'Idempotency-Key': idempotencyKey }),
    onSettled: refresh,
  });
}

export function useKeys() {
  return useQuery({ queryKey: ['keys'], queryFn: ({ signal }) => call(listOperatorKeysOperation, {}, signal) });
}

export function useCreateKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (key: NewKey) => call(createOperatorKeyOperation, { body: key }),
    onSettled: () => client.invalidateQueries({ queryKey: ['keys'] }),
  });
}

export function useRevokeKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => call(revokeOperatorKeyOperation, { params: { KeyID: keyId } }),
    onSettled: () => client.invalidateQueries({ queryKey: ['keys'] }),
  });
}

export function useUsage(query: { From: string; To: string; TimeZone?: string | undefined }) {
  return useQuery({
    queryKey: ['usage', query],
    queryFn: ({ signal }) => call(getOperatorUsageOperation, { query }, signal),
    placeholderData: keepPreviousData,
  });
}

export function useFailedEvents() {
  return useQuery({ queryKey: ['failed-events'], queryFn: ({ signal }) => call(listFailedEventsOperation, {}, signal) });
}

export function useReplayFailedEvent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (jobId: string) => call(replayFailedEventOperation, { params: { JobID: jobId } }),
    onSettled: () => client.invalidateQueries({ queryKey: ['failed-events'] }),
  });
}

export function useCreateActivity() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (activity: NewOperatorActivity) => call(createOperatorActivityOperation, { body: activity }),
    onSettled: () => client.invalidateQueries({ queryKey: ['activities'] }),
  });
}

export function useEditActivity() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ activityId, changes }: { activityId: string; changes: ActivityChanges }) =>
      call(editOperatorActivityOperation, { params: { ActivityID: activityId }, body: changes }),
    onSettled: () => client.invalidateQueries({ queryKey: ['activities'] }),
  });
}

export function useQuestions(activityId: string | undefined) {
  return useQuery({
    queryKey: ['questions', activityId],
    queryFn: ({ signal }) => call(listOperatorQuestionsOperation, { params: { ActivityID: activityId! } }, signal),
    enabled: activityId !== undefined,
  });
}

export function useAddQuestion() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ activityId, question }: { activityId: string; question: NewQuestion }) =>
      call(addOperatorQuestionOperation, { params: { ActivityID: activityId }, body: question }),
    onSettled: (_data, _error, { activityId }) => client.invalidateQueries({ queryKey: ['questions', activityId] }),
  });
}

export function useGenerateTimeslots() {
  const refresh = useRefreshPlaces();
  return useMutation({
    mutationFn: ({ activityId, pattern }: { activityId: string; pattern: TimeslotPattern }) =>
      call(generateTimeslotsOperation, { params: { ActivityID: activityId }, body: pattern }),
    onSettled: refresh,
  });
}

export function useUsers() {
  return useQuery({ queryKey: ['users'], queryFn: ({ signal }) => call(listOperatorUsersOperation, {}, signal) });
}

export function useCreateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (user: NewOperatorUser) => call(createOperatorUserOperation, { body: user }),
    onSettled: () => client.invalidateQueries({ queryKey: ['users'] }),
  });
}

export function useDisableUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => call(disableOperatorUserOperation, { params: { UserID: userId } }),
    onSettled: () => client.invalidateQueries({ queryKey: ['users'] }),
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

export function useSalesReport(query: { From: string; To: string }) {
  return useQuery({
    queryKey: ['sales-report', query],
    queryFn: ({ signal }) => call(getOperatorSalesReportOperation, { query }, signal),
    placeholderData: keepPreviousData,
  });
}

/** The audit log, newest first: its pages so far, one more with fetchNextPage ("Load more"). */
export function useAudit(action: AuditAction | null) {
  return useInfiniteQuery({
    queryKey: ['audit', action],
    queryFn: ({ pageParam, signal }) =>
      call(listOperatorAuditOperation, { query: { ...(action ? { Action: action } : {}), ...(pageParam ? { Cursor: pageParam } : {}) } }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.Next,
  });
}
