/**
 * Text rules of the keyword box, shared by the index side (the words of a
 * car) and the query side (the words a shopper types), so both agree on
 * what a word is: lower case, accents off, split on anything that is not a
 * letter or a digit ("CX-5" is "cx" "5", and also "cx5": see compact).
 */

/** Lower case without accents ("Citroën" → "citroen"). */
export function fold(s: string): string {
  return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

/** The words of a text: "GT-Line 4x4" → ["gt", "line", "4x4"]. */
export function words(s: string): string[] {
  return fold(s).split(/[^a-z0-9]+/).filter(Boolean);
}

/**
 * The typos a word may carry: none for words of 3 or fewer characters and
 * for words with a digit (numbers and model codes: "4wd" must never match
 * "fwd", "4x4" never "4x2", "cx5" never "cx3"); 1; 2 from 8 letters on.
 */
export function typoBudget(word: string): number {
  if (word.length <= 3 || /\d/.test(word)) return 0;
  return word.length >= 8 ? 2 : 1;
}

/**
 * Optimal string alignment distance (insertions, deletions, substitutions
 * and swaps of two neighbours each cost 1: "hyundia" is 1 from "hyundai"),
 * or `max + 1` as soon as it must exceed `max`.
 */
export function distance(a: string, b: string, max: number): number {
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > max) return max + 1;
  // Three rows: the one before last (for swaps), the last, the current.
  let prev2 = new Array<number>(lb + 1).fill(0);
  let prev = Array.from({ length: lb + 1 }, (_, j) => j);
  let cur = new Array<number>(lb + 1).fill(0);
  for (let i = 1; i <= la; i++) {
    cur[0] = i;
    let best = i;
    for (let j = 1; j <= lb; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      cur[j] = d;
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return Math.min(prev[lb]!, max + 1);
}
