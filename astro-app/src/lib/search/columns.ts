/** Dictionary-coded columns of the decoded index, shared by the engine and the keyword planner. */

export interface Column {
  /** Distinct values. */
  values: string[];
  /** Per car: index into `values`, or -1 when the car has none. */
  codes: Int32Array;
}

/** Car `i`'s value of a column ('' when it has none or there is no column). */
export function valueAt(col: Column | undefined, i: number): string {
  const c = col?.codes[i] ?? -1;
  return c < 0 ? '' : col!.values[c]!;
}

export function column(values: string[], codes: ArrayLike<number>): Column {
  return { values, codes: Int32Array.from(codes) };
}

/** A column from per-car values ('' = none), for attributes the index stores otherwise. */
export function derived(n: number, valueOf: (i: number) => string): Column {
  const raw = Array.from({ length: n }, (_, i) => valueOf(i));
  const values = [...new Set(raw.filter((v) => v !== ''))].sort();
  const code = new Map(values.map((v, i) => [v, i]));
  return column(
    values,
    raw.map((v) => code.get(v) ?? -1),
  );
}
