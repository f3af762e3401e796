// The console's reports: the sales report and the audit log.
// Each hook wraps one operation of the API client in TanStack Query (caching, retries, polling), so pages stay thin
// and never call fetch themselves.
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { getOperatorSalesReportOperation, listOperatorAuditOperation, type AuditAction, type SalesReportDate } from '@backbone/contracts/browser';
import { call } from './client.js';

export function useSalesReport(query: { From: string; To: string; By: SalesReportDate }) {
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
