// The console's users, their invitations and the account's API keys.
// Each hook wraps one operation of the API client in TanStack Query (caching, retries, polling), so pages stay thin
// and never call fetch themselves.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createOperatorKeyOperation,
  createOperatorUserOperation,
  disableOperatorUserOperation,
  inviteOperatorUserOperation,
  listOperatorInvitationsOperation,
  resendOperatorInvitationOperation,
  revokeOperatorInvitationOperation,
  listOperatorKeysOperation,
  listOperatorUsersOperation,
  revokeOperatorKeyOperation,
  type NewKey,
  type NewOperatorInvitation,
  type NewOperatorUser,
} from '@backbone/contracts/browser';
import { call } from './client.js';

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

export function useInvitations() {
  return useQuery({ queryKey: ['invitations'], queryFn: ({ signal }) => call(listOperatorInvitationsOperation, {}, signal) });
}

export function useInviteUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (invitation: NewOperatorInvitation) => call(inviteOperatorUserOperation, { body: invitation }),
    onSettled: () => client.invalidateQueries({ queryKey: ['invitations'] }),
  });
}

export function useResendInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (invitationId: string) => call(resendOperatorInvitationOperation, { params: { InvitationID: invitationId } }),
    onSettled: () => client.invalidateQueries({ queryKey: ['invitations'] }),
  });
}

export function useRevokeInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (invitationId: string) => call(revokeOperatorInvitationOperation, { params: { InvitationID: invitationId } }),
    onSettled: () => client.invalidateQueries({ queryKey: ['invitations'] }),
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
