// The console's customer e-mails: the E-mails list and the owner's settings and templates (preview, test send).
// Each hook wraps one operation of the API client in TanStack Query, so pages stay thin and never call fetch themselves.
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  getMailSettingsOperation,
  listMailMessagesOperation,
  previewMailOperation,
  sendTestMailOperation,
  setPartnerCustomerEmailsOperation,
  updateMailSettingsOperation,
  type MailSettings,
  type MailSettingsChanges,
  type MailTemplateBody,
} from '@backbone/contracts/browser';
import { call } from './client.js';

export type TemplateKind = 'confirmation' | 'change' | 'cancellation' | 'reminder' | 'waitlist-offer';

/** The account's e-mails, newest first; polled so that a queued message's sending shows. */
export function useMailMessages() {
  return useInfiniteQuery({
    queryKey: ['mail-messages'],
    queryFn: ({ pageParam, signal }) => call(listMailMessagesOperation, { query: pageParam ? { Cursor: pageParam } : {} }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.Next,
    refetchInterval: 5000,
  });
}

export function useMailSettings() {
  return useQuery({ queryKey: ['mail-settings'], queryFn: ({ signal }) => call(getMailSettingsOperation, {}, signal) });
}

export function useUpdateMailSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (changes: MailSettingsChanges) => call(updateMailSettingsOperation, { body: changes }),
    onSuccess: (settings) => client.setQueryData(['mail-settings'], settings),
  });
}

/** The template being edited, rendered with sample values as it changes (the last answer stays while typing). */
export function useMailPreview(kind: TemplateKind, template: MailTemplateBody | null) {
  return useQuery({
    queryKey: ['mail-preview', kind, template],
    queryFn: ({ signal }) => call(previewMailOperation, { body: { Kind: kind, ...(template ? { Template: template } : {}) } }, signal),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useSendTestMail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: { Kind: TemplateKind; To: string; Template: MailTemplateBody }) => call(sendTestMailOperation, { body: request }),
    onSettled: () => client.invalidateQueries({ queryKey: ['mail-messages'] }),
  });
}

/** Switches one partner's customers' e-mails, shown switched while the request runs (the settings list the partners). */
export function useSetPartnerCustomerEmails() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: { PartnerID: string; Enabled: boolean }) =>
      call(setPartnerCustomerEmailsOperation, { params: { PartnerID: request.PartnerID }, body: { Enabled: request.Enabled } }),
    onMutate: (request) =>
      client.setQueryData<MailSettings>(['mail-settings'], (settings) =>
        settings
          ? { ...settings, Partners: settings.Partners.map((p) => (p.PartnerID === request.PartnerID ? { ...p, CustomerEmails: request.Enabled } : p)) }
          : settings,
      ),
    onSettled: () => client.invalidateQueries({ queryKey: ['mail-settings'] }),
  });
}
