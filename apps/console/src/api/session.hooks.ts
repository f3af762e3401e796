// The console's session: who is signed in, what their role may do, signing in and out, choosing among one's accounts,
// changing one's password.
// Each hook wraps one operation of the API client in TanStack Query (caching, retries, polling), so pages stay thin
// and never call fetch themselves.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  acceptOperatorInvitationOperation,
  changeOwnPasswordOperation,
  chooseOperatorAccountOperation,
  openOperatorInvitationOperation,
  completePasswordResetOperation,
  getOperatorSessionOperation,
  operatorHasGrant,
  operatorMay,
  requestPasswordResetOperation,
  type OperatorGrant,
  signInOperation,
  signOutOperation,
  type InvitationAcceptance,
  type OperatorAccountChoice,
  type OperatorOperationId,
  type OwnPasswordChange,
  type PasswordResetCompletion,
} from '@backbone/contracts/browser';
import { ApiProblem, call, showAccount } from './client.js';

export function useSession() {
  return useQuery({
    queryKey: ['session'],
    queryFn: async ({ signal }) => {
      const session = await call(getOperatorSessionOperation, {}, signal);
      showAccount(session.AccountID);
      return session;
    },
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

/**
 * The accounts to choose from when the session is bound to none yet (a person with several signed in): the session's
 * answer is then a 403 `/account-choice-required` that names them. Null otherwise.
 */
export function accountChoiceOf(error: unknown): OperatorAccountChoice[] | null {
  if (!(error instanceof ApiProblem) || error.code !== 'account-choice-required') return null;
  return Array.isArray(error.problem.Accounts) ? (error.problem.Accounts as OperatorAccountChoice[]) : [];
}

/**
 * Works in another of the person's accounts (or the first one chosen after signing in): the server replaces the
 * session, and every cached answer was the other account's, so all are dropped before anything is shown again.
 */
export function useChooseAccount(onChosen: () => void = () => {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (accountId: string) => call(chooseOperatorAccountOperation, { body: { AccountID: accountId } }),
    // Leave the page's URL first (it may name the other account's booking or timeslot), then ask everything again, as
    // the chosen account's page.
    onSuccess: (_answer, accountId) => (onChosen(), showAccount(accountId), client.resetQueries()),
  });
}

/** What an invitation's link opens (its account, and whether the invitee has a password already); read once. */
export function useOpenInvitation(token: string) {
  return useQuery({
    queryKey: ['invitation', token],
    queryFn: ({ signal }) => call(openOperatorInvitationOperation, { body: { Token: token } }, signal),
    enabled: token !== '',
    retry: (count, error) => !(error instanceof ApiProblem && error.status < 500) && count < 2,
    staleTime: Infinity,
  });
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
