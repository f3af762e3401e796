// The console's session: who is signed in, what their role may do, signing in and out, changing one's password.
// Each hook wraps one operation of the API client in TanStack Query (caching, retries, polling), so pages stay thin
// and never call fetch themselves.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  acceptOperatorInvitationOperation,
  changeOwnPasswordOperation,
  completePasswordResetOperation,
  getOperatorSessionOperation,
  operatorHasGrant,
  operatorMay,
  requestPasswordResetOperation,
  type OperatorGrant,
  signInOperation,
  signOutOperation,
  type InvitationAcceptance,
  type OperatorOperationId,
  type OwnPasswordChange,
  type PasswordResetCompletion,
} from '@backbone/contracts/browser';
import { ApiProblem, call } from './client.js';

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

/** Whether the signed-in user's role has a grant within an operation (a discount, an override, an overbooking). */
export function useGrant(): (grant: OperatorGrant) => boolean {
  const session = useSession();
  const role = session.data?.Role;
  return (grant) => role !== undefined && operatorHasGrant(role, grant);
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

export function useChangeOwnPassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: OwnPasswordChange) => call(changeOwnPasswordOperation, { body: change }),
    // A one-time password allowed nothing else: every answer cached meanwhile was a refusal. Asked again in the
    // background, so the page that changed it stays on screen.
    onSuccess: () => client.invalidateQueries(),
  });
}

/** The session's answer: sign in, or the user signed in with a one-time password and must choose their own first. */
export function needsPasswordChange(error: unknown): boolean {
  return error instanceof ApiProblem && error.code === 'password-change-required';
}

/** The invitee's password, from the invitation's link: the answer signs them in, so every cached answer is dropped. */
export function useAcceptInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (acceptance: InvitationAcceptance) => call(acceptOperatorInvitationOperation, { body: acceptance }),
    onSuccess: () => client.resetQueries(),
  });
}

/** "Forgot your password?": the same answer whether or not the address is a user's. */
export function useRequestPasswordReset() {
  return useMutation({ mutationFn: (email: string) => call(requestPasswordResetOperation, { body: { Email: email } }) });
}

/** The new password, from the reset link: the answer signs in. */
export function useCompletePasswordReset() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (completion: PasswordResetCompletion) => call(completePasswordResetOperation, { body: completion }),
    onSuccess: () => client.resetQueries(),
  });
}
