// A browser client's reading of an answer: the body of a success, or the RFC 9457 problem as ApiProblem with the
// fields that failed (each shown next to its field). The console and the booking page both read answers this way;
// this entry (@backbone/contracts/api-problem) carries no schema, so it costs the page's bundle only itself.

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
  /** The last segment of the problem's type URI: 'insufficient-capacity', 'unauthorized', ... */
  get code(): string {
    return (this.problem.type ?? '').split('/').pop() ?? '';
  }
}

/** What of a fetch Response is read (the contracts compile without the DOM's types). */
export interface FetchedAnswer {
  status: number;
  ok: boolean;
  text(): Promise<string>;
}

/** The answer's JSON body (undefined for a 204 or an empty body); a refusal throws its problem as ApiProblem. */
export async function readAnswer<T>(response: FetchedAnswer): Promise<T> {
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // A gateway's HTML error page, say: the status still says what happened.
    parsed = undefined;
  }
  if (!response.ok) throw new ApiProblem(response.status, (parsed ?? {}) as ProblemBody);
  return parsed as T;
}
