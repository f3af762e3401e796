// Page state that lives in the URL (filters, cursors, the open detail), so that every view can be shared as a link.
import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';

export function useUrlState<K extends string>(names: readonly K[]): [Partial<Record<K, string>>, (changes: Partial<Record<K, string | null>>) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const values = useMemo(() => {
    const params = new URLSearchParams(search);
    const result: Partial<Record<K, string>> = {};
    for (const name of names) {
      const value = params.get(name);
      if (value !== null && value !== '') result[name] = value;
    }
    return result;
  }, [search, names]);
  const update = useCallback(
    (changes: Partial<Record<K, string | null>>) => {
      const params = new URLSearchParams(search);
      for (const [name, value] of Object.entries(changes) as [K, string | null | undefined][]) {
        if (value === null || value === undefined || value === '') params.delete(name);
        else params.set(name, value);
      }
      const query = params.toString();
      navigate(query ? `${location}?${query}` : location);
    },
    [search, location, navigate],
  );
  return [values, update];
}
