// The page's one door to the shop API (/api/v2/shop/{Slug}/...): no key, no cookie. Problems come back as
// ApiProblem with the fields that failed, so each error is shown next to its field.

import { ApiProblem, readAnswer } from '@backbone/contracts/api-problem';

export { ApiProblem, type ProblemBody } from '@backbone/contracts/api-problem';

export async function send<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const init: RequestInit = { method, headers: { Accept: 'application/json', ...headers }, credentials: 'omit' };
  if (body instanceof Blob) init.body = body;
  else if (body !== undefined) {
    init.headers = { ...init.headers, 'Content-Type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiProblem(0, { detail: 'The connection failed. Check that you are online and try again.' });
  }
  return readAnswer<T>(response);
}

export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}
