// The one API client: every call names an operation object from @backbone/contracts, so its path, method and the
// types of its inputs and answer all come from the contract. Problems come back as ApiProblem with their detail.
import { readAnswer } from '@backbone/contracts/api-problem';
import type { BodyOf, Operation, ParamsOf, QueryOf, ResultOf } from '@backbone/contracts/browser';

export { ApiProblem, type ProblemBody } from '@backbone/contracts/api-problem';

type Input<Op extends Operation> = (ParamsOf<Op> extends undefined ? { params?: undefined } : { params: ParamsOf<Op> }) & {
  query?: QueryOf<Op>;
} & (BodyOf<Op> extends undefined ? { body?: undefined } : { body: BodyOf<Op> });

/** The operation's URL with its path parameters and query filled in (also the href of a CSV download). */
export function operationUrl<Op extends Operation>(op: Op, input: { params?: unknown; query?: unknown } = {}): string {
  const params = (input.params ?? {}) as Record<string, string>;
  const path = op.path.replace(/:([A-Za-z]+)/g, (_m, name: string) => encodeURIComponent(String(params[name])));
  const search = new URLSearchParams();
  // Query members are strings, numbers and booleans (the contracts' query schemas have no nested members).
  for (const [name, value] of Object.entries((input.query ?? {}) as Record<string, string | number | boolean | undefined>)) {
    if (value !== undefined && value !== '') search.set(name, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/**
 * The account the console shows (the session's, once read): every call but the session's own names it, so that after
 * a switch in another tab (one cookie per browser) the API refuses this tab's calls (409 `/account-switched`) instead
 * of answering with, or writing to, the other account under this one's name.
 */
let shownAccount: string | null = null;
export function showAccount(accountId: string | null): void {
  shownAccount = accountId;
}

export async function call<Op extends Operation>(
  op: Op,
  input: Input<Op>,
  signal?: AbortSignal,
  extraHeaders: Record<string, string> = {},
): Promise<ResultOf<Op>> {
  const headers: Record<string, string> = { Accept: 'application/json', ...extraHeaders };
  if (shownAccount !== null && op.operationId !== 'getOperatorSession') headers['X-Backbone-Account'] = shownAccount;
  let body: string | undefined;
  if (input.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(input.body);
  }
  const response = await fetch(operationUrl(op, input), { method: op.method.toUpperCase(), headers, body, credentials: 'same-origin', signal });
  return readAnswer<ResultOf<Op>>(response);
}

/**
 * Sends a file as the raw body of an upload operation (the API reads no multipart form): its media type as Content-Type
 * and its name, percent-encoded (a header carries no other characters), in Content-Disposition's filename*. The browser
 * sends the Content-Length itself.
 */
export async function upload<Op extends Operation>(op: Op, file: File, signal?: AbortSignal): Promise<ResultOf<Op>> {
  const headers = {
    Accept: 'application/json',
    'Content-Type': file.type || 'application/octet-stream',
    'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`,
  };
  const response = await fetch(operationUrl(op), { method: op.method.toUpperCase(), headers, body: file, credentials: 'same-origin', signal });
  return readAnswer<ResultOf<Op>>(response);
}
