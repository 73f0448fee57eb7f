/**
 * fast-check arbitraries from the JSON Schemas of the OpenAPI document: values the schema accepts,
 * and mutations that break it in each way the schema allows (wrong types, missing and extra
 * fields, out-of-range numbers, too many items, huge and unicode-hostile strings).
 */
import fc from "fast-check";
import type { Json, Schema } from "./schema";

/** Strings that break naive handling: controls, lone surrogates, bidi overrides, zero-width joins, BOM, line separators, SQL, markup, paths. */
export const HOSTILE_STRINGS = [
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udfffy",
  "\u202eevil\u202c",
  "👩‍👩‍👧‍👦",
  "e\u0301\u0301\u0301",
  "\ufeffbom",
  "line\u2028break\u2029",
  "\u0007\u001b[31mred",
  "'; DROP TABLE memories; --",
  '" OR 1=1 --',
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "%00%2e%2e%2f",
  "𝕏𝕐ℤ",
  "漢字かな交じり文",
  "\t \n ",
  " ",
  "NaN",
  "{}",
];

const HUGE = 300_000;

function typesOf(schema: Schema): string[] {
  const type = schema.type;
  if (Array.isArray(type)) return type as string[];
  if (typeof type === "string") return [type];
  if (schema.enum || schema.const !== undefined) return [];
  if (schema.properties || schema.additionalProperties) return ["object"];
  if (schema.items) return ["array"];
  return [];
}

const regexCache = new Map<string, RegExp>();
function regex(pattern: string): RegExp {
  let re = regexCache.get(pattern);
  if (!re) {
    re = new RegExp(pattern, "u");
    regexCache.set(pattern, re);
  }
  return re;
}

function stringArb(schema: Schema): fc.Arbitrary<string> {
  if (schema.format === "date-time")
    return fc.date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }).map((d) => d.toISOString());
  const minLength = (schema.minLength as number | undefined) ?? 0;
  // Mostly short (every valid request is cheap to serve), sometimes at the limit.
  const maxLength = Math.min((schema.maxLength as number | undefined) ?? 40, 40);
  const pattern = schema.pattern as string | undefined;
  if (pattern) {
    const re = regex(pattern);
    try {
      return fc
        .stringMatching(re)
        .filter((s) => s.length >= minLength && s.length <= ((schema.maxLength as number | undefined) ?? Infinity));
    } catch {
      // Negated Unicode property classes are beyond stringMatching: filter plain strings instead.
      return fc
        .string({ minLength: Math.max(minLength, 1), maxLength: Math.max(maxLength, minLength, 1), unit: "grapheme" })
        .filter((s) => re.test(s));
    }
  }
  const plain = fc.string({ minLength, maxLength: Math.max(maxLength, minLength) });
  const max = schema.maxLength as number | undefined;
  return max !== undefined && max > maxLength
    ? fc.oneof({ arbitrary: plain, weight: 9 }, { arbitrary: fc.constant("ä".repeat(max)), weight: 1 })
    : plain;
}

function numberArb(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = (schema.minimum as number | undefined) ?? (schema.exclusiveMinimum as number | undefined);
  const max = (schema.maximum as number | undefined) ?? (schema.exclusiveMaximum as number | undefined);
  if (integer) {
    const lo = Math.max(min ?? -1000, Number.MIN_SAFE_INTEGER);
    const hi = Math.min(max ?? 1_000_000, Number.MAX_SAFE_INTEGER);
    return fc.oneof(fc.integer({ min: lo, max: Math.min(hi, lo + 1000) }), fc.integer({ min: lo, max: hi }), fc.constantFrom(lo, hi));
  }
  const lo = min ?? -1e6;
  const hi = max ?? 1e6;
  return fc.oneof(
    fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x)),
    fc.constantFrom(lo, hi),
  );
}

/** Values the schema accepts (as far as JSON Schema can say: zod refinements may still refuse some). */
export function valid(schema: Schema | undefined): fc.Arbitrary<Json> {
  if (!schema || Object.keys(schema).length === 0) return fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>;
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as Json[]));
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map((s) => valid(s)));
  if (schema.allOf) return valid(Object.assign({}, ...(schema.allOf as Schema[])));
  const types = typesOf(schema);
  if (types.length > 1) return fc.oneof(...types.map((type) => valid({ ...schema, type })));
  switch (types[0]) {
    case "string":
      return stringArb(schema);
    case "integer":
      return numberArb(schema, true);
    case "number":
      return numberArb(schema, false);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const minLength = (schema.minItems as number | undefined) ?? 0;
      const maxLength = Math.max(minLength, Math.min((schema.maxItems as number | undefined) ?? 4, 4));
      return fc.array(valid(schema.items as Schema | undefined), { minLength, maxLength }) as fc.Arbitrary<Json>;
    }
    case "object":
      return objectArb(schema);
    default:
      return fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>;
  }
}

function objectArb(schema: Schema): fc.Arbitrary<Json> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const names = Object.keys(properties);
  if (names.length === 0 && schema.additionalProperties && typeof schema.additionalProperties === "object") {
    const keys = schema.propertyNames ? stringArb(schema.propertyNames as Schema) : fc.string({ minLength: 1, maxLength: 12 });
    return fc.dictionary(keys, valid(schema.additionalProperties as Schema), { maxKeys: 4 }) as fc.Arbitrary<Json>;
  }
  return fc.record(Object.fromEntries(names.map((name) => [name, valid(properties[name])])), {
    requiredKeys: names.filter((n) => required.has(n)),
  }) as fc.Arbitrary<Json>;
}

/** Every place in a value with the schema that governs it: where a mutation can go. */
interface Site {
  path: (string | number)[];
  schema: Schema;
  value: Json | undefined;
}

function sites(schema: Schema | undefined, value: Json | undefined, path: (string | number)[] = [], out: Site[] = []): Site[] {
  if (!schema) return out;
  out.push({ path, schema, value });
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives) {
    // The alternative the value belongs to is unknown here: descend into objects only by shape.
    const match = alternatives.find((s) =>
      typesOf(s).includes(Array.isArray(value) ? "array" : value === null ? "null" : typeof value === "object" ? "object" : typeof value),
    );
    if (match && match !== schema) sites(match, value, path, out);
    return out;
  }
  if (value && typeof value === "object" && !Array.isArray(value) && schema.properties) {
    for (const [name, sub] of Object.entries(schema.properties as Record<string, Schema>)) sites(sub, value[name], [...path, name], out);
  }
  if (Array.isArray(value) && schema.items && value.length > 0) sites(schema.items as Schema, value[0], [...path, 0], out);
  return out;
}

function setAt(root: Json, path: (string | number)[], next: Json | undefined): Json {
  if (path.length === 0) return next ?? null;
  const copy = structuredClone(root) as Record<string | number, Json>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, Json>;
  const last = path.at(-1)!;
  if (next === undefined) {
    if (Array.isArray(at)) at.splice(Number(last), 1);
    else delete at[last];
  } else at[last] = next;
  return copy;
}

const wrongTypeFor = (schema: Schema): Json[] => {
  const types = typesOf(schema);
  return (
    [
      ["string", "oops"],
      ["number", 12.5],
      ["integer", 7],
      ["boolean", true],
      ["null", null],
      ["array", [1, "2"]],
      ["object", { nested: {} }],
    ] as [string, Json][]
  )
    .filter(([t]) => !types.includes(t) && !(t === "integer" && types.includes("number")))
    .map(([, v]) => v);
};

/** How one site of a value can break its schema. */
function breakages(site: Site): Json[] {
  const { schema } = site;
  const out: (Json | undefined)[] = [...wrongTypeFor(schema)];
  const types = typesOf(schema);
  if (types.includes("string") || schema.format === "date-time") {
    const max = schema.maxLength as number | undefined;
    out.push(...HOSTILE_STRINGS, "x".repeat((max ?? 1000) + 1), "y".repeat(HUGE), "");
    if (schema.format === "date-time") out.push("2026-13-45T25:61:00Z", "yesterday", "1700000000");
  }
  if (types.includes("number") || types.includes("integer")) {
    const min = schema.minimum as number | undefined;
    const max = schema.maximum as number | undefined;
    out.push(1e308, -1e308, 2 ** 53 + 1, -0.000001);
    if (min !== undefined) out.push(min - 1, min - 0.5);
    if (max !== undefined) out.push(max + 1, max + 0.5);
    if (types.includes("integer")) out.push(1.5);
  }
  if (Array.isArray(schema.enum)) out.push("not-one-of-them", String(schema.enum[0]).toUpperCase() + "_");
  if (types.includes("array")) {
    const max = schema.maxItems as number | undefined;
    const item = Array.isArray(site.value) ? (site.value[0] ?? "item") : "item";
    out.push(
      Array.from({ length: (max ?? 1000) + 1 }, () => item),
      [],
    );
  }
  if (types.includes("object")) {
    const value = site.value && typeof site.value === "object" && !Array.isArray(site.value) ? site.value : {};
    out.push({ ...value, ["unexpected_field"]: "x" }, {});
    for (const name of (schema.required ?? []) as string[]) {
      const rest = { ...value };
      delete rest[name];
      out.push(rest);
    }
  }
  return out.filter((v): v is Json => v !== undefined);
}

/** A value that breaks the schema somewhere: one site, one breakage (or the property removed). */
export function invalid(schema: Schema | undefined, value: Json): fc.Arbitrary<Json> {
  const all = sites(schema, value);
  const options = all.flatMap((site) => [
    ...breakages(site).map((broken) => ({ path: site.path, broken: broken as Json | undefined })),
    ...(site.path.length > 0 ? [{ path: site.path, broken: undefined }] : []),
  ]);
  if (options.length === 0) return fc.constant(42);
  return fc.constantFrom(...options).map(({ path, broken }) => setAt(value, path, broken));
}
