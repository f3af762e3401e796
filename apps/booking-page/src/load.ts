// Loading what a view shows: the answer, the problem, or still waiting; a newer load wins over an older one.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

export function useLoad<T>(load: (() => Promise<T>) | null, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({ data: undefined, error: undefined, loading: load !== null });
  const generation = useRef(0);
  const run = useCallback(() => {
    const mine = ++generation.current;
    if (!load) return setState({ data: undefined, error: undefined, loading: false });
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => mine === generation.current && setState({ data, error: undefined, loading: false }),
      (error: unknown) => mine === generation.current && setState({ data: undefined, error, loading: false }),
    );
  }, deps);
  useEffect(run, [run]);
  return { ...state, reload: run };
}
