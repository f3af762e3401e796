// The page's one door to the shop API (/api/v2/shop/{Slug}/...): no key, no cookie. Problems come back as
// ApiProblem with the fields that failed, so each error is shown next to its field.

export interface ProblemBody {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  errors?: { field: string; message: string }[];
  [member: string]: unknown;
}

export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly problem: ProblemBody,
  ) {
    super(problem.detail ?? problem.title ?? `Request failed (${status})`);
  }
  get code(): string {
    return (this.problem.type ?? '').split('/').pop() ?? '';
  }
}

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
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) throw new ApiProblem(response.status, (parsed ?? {}) as ProblemBody);
  return parsed as T;
}

export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}
