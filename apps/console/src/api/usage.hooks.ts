// The console's usage: the account's metered usage, and its failed platform events with their replay.
// Each hook wraps one operation of the API client in TanStack Query (caching, retries, polling), so pages stay thin
// and never call fetch themselves.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getOperatorUsageOperation, listFailedEventsOperation, replayFailedEventOperation } from '@backbone/contracts/browser';
import { call } from './client.js';

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
