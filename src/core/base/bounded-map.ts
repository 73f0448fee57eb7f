/**
 * A per-isolate cache with a bound on its size: when a new key would take it past `max`, it is
 * emptied and starts again. Simpler than least-recently-used, and enough where the entries are cheap
 * to rebuild (a key lookup, a placement, a scale): the bound is on memory, not on hits.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(readonly max: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (this.size >= this.max && !this.has(key)) this.clear();
    return super.set(key, value);
  }
}
