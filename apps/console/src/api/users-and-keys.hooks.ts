// The console's users and the account's API keys.
// Each hook wraps one operation of the API client in TanStack Query (caching, retries, polling), so pages stay thin
// and never call fetch themselves.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createOperatorKeyOperation,
  createOperatorUserOperation,
  disableOperatorUserOperation,
  listOperatorKeysOperation,
  listOperatorUsersOperation,
  revokeOperatorKeyOperation,
  type NewKey,
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
