// Positional parameters by name, for statements assembled from shared fragments. Each value is named once, in the
// order of its number; the fragments write `${$.name}` where the text says `$n`, and the values array is built from
// an object of the same names, so a value cannot land on another's number and a missing one does not compile.

export interface SqlParameters<N extends string> {
  /** The `$n` of each name, to write into a statement's text. */
  readonly $: { readonly [K in N]: string };
  /** The values in the order of their numbers. */
  values(named: { readonly [K in N]: unknown }): unknown[];
  /** These parameters followed by more, numbered after them: a fragment written with these means the same in both. */
  and<M extends string>(...names: M[]): SqlParameters<N | M>;
}

export function sqlParameters<const N extends string>(...names: N[]): SqlParameters<N> {
  if (new Set(names).size !== names.length) throw new Error(`a parameter is named twice: ${names.join(', ')}`);
  return {
    $: Object.fromEntries(names.map((name, i) => [name, `$${i + 1}`])) as { [K in N]: string },
    values: (named) => names.map((name) => named[name]),
    and: <M extends string>(...more: M[]) => sqlParameters<N | M>(...names, ...more),
  };
}
