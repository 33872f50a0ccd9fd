/**
 * The result cache (docs/behaviour/search.md §9): up to 10 responses, the oldest evicted
 * first, so going back to an earlier search shows it without searching again.
 */
export const RESULT_CACHE_SIZE = 10;

export class ResultCache<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly capacity = RESULT_CACHE_SIZE) {}

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: V): void {
    // Re-setting a key keeps its age: "oldest" is the first stored.
    if (!this.entries.has(key) && this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, value);
  }

  get size(): number {
    return this.entries.size;
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }
}
