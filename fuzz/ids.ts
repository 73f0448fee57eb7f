/** Ids the fuzzer saw in answers, so valid requests can address resources that exist. */

/** Ids seen in answers, by prefix (mem_, faq_, fv_, …): valid requests address real resources. */
export class IdPool {
  private readonly byPrefix = new Map<string, string[]>();
  private readonly any: string[] = [];

  /**
   * `ownKeys`: the API keys the fuzzer sends. An answer describing one of them (GET /v1/admin/keys
   * lists them by keyPrefix) adds no id: a valid DELETE /v1/admin/keys/{id} picked from the pool
   * would revoke the fuzzer's own key, and every later request would answer 401.
   */
  constructor(private readonly ownKeys: readonly string[] = []) {}

  collect(value: unknown, key = ""): void {
    if (typeof value === "string") {
      if ((key === "id" || key.endsWith("Id") || key === "ids") && /^[a-z]+_[A-Za-z0-9_-]{8,}$/.test(value)) this.add(value);
    } else if (Array.isArray(value)) value.slice(0, 20).forEach((v) => this.collect(v, key));
    else if (value && typeof value === "object" && !this.describesOwnKey(value))
      for (const [k, v] of Object.entries(value)) this.collect(v, k);
  }

  private describesOwnKey(value: object): boolean {
    const { key, keyPrefix } = value as { key?: unknown; keyPrefix?: unknown };
    if (typeof key === "string" && this.ownKeys.includes(key)) return true;
    return typeof keyPrefix === "string" && keyPrefix.length > 0 && this.ownKeys.some((own) => own.startsWith(keyPrefix));
  }

  private add(id: string) {
    const prefix = id.slice(0, id.indexOf("_"));
    const list = this.byPrefix.get(prefix) ?? [];
    if (list.includes(id)) return;
    list.push(id);
    if (list.length > 200) list.shift();
    this.byPrefix.set(prefix, list);
    this.any.push(id);
    if (this.any.length > 500) this.any.shift();
  }

  pick(prefixes: readonly string[], index: number): string | undefined {
    const list = prefixes.flatMap((p) => this.byPrefix.get(p) ?? []);
    const from = list.length > 0 ? list : this.any;
    return from.length > 0 ? from[index % from.length] : undefined;
  }
}

/** Which id prefixes a path parameter takes, from the path segment before it. */
export function prefixesFor(path: string, param: string): string[] {
  const before = path.split(`/{${param}}`)[0]!.split("/").at(-1);
  const byResource: Record<string, string[]> = {
    memories: ["mem"],
    faqs: ["faq"],
    variants: ["fv"],
    relationships: ["rel"],
    suggestions: ["sug"],
    tickets: ["tkt"],
    staging: ["stg"],
    keys: ["key"],
    "webhook-secrets": ["whs"],
  };
  return byResource[before ?? ""] ?? [];
}
