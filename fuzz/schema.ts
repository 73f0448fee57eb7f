/**
 * Reading the OpenAPI document: operations, their schemas with `$ref`s inlined, and validating a
 * response against what the document says for its status. Used by the contract test (inside
 * workerd: @cfworker/json-schema needs no eval) and by the fuzzer (Node).
 */
import { Validator } from "@cfworker/json-schema";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Schema = { [key: string]: Json };
export interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components?: Record<string, Record<string, Json>>;
  security?: Json[];
}
export interface Parameter {
  in: "path" | "query" | "header";
  name: string;
  required?: boolean;
  schema?: Schema;
}
export interface Operation {
  operationId: string;
  tags?: string[];
  summary?: string;
  description?: string;
  security?: Json[];
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: Schema; example?: Json }> };
  responses: Record<string, { $ref?: string; description?: string; content?: Record<string, { schema?: Schema; example?: Json }> }>;
  /** The operation answers 200 to every request, a failure included (the Claude Code hook). */
  "x-recall-always-200"?: boolean;
}
export interface OperationRef {
  method: string;
  path: string;
  op: Operation;
}

export const METHODS = ["get", "put", "post", "delete", "patch"] as const;

export function operations(doc: Doc): OperationRef[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ method, path, op: deref(doc, item[method]) as unknown as Operation })),
  );
}

/** The node with every local `$ref` replaced by what it points to (the document has no cycles). */
export function deref<T>(doc: Doc, node: T, depth = 0): T {
  if (depth > 50) throw new Error("$ref too deep (a cycle?)");
  if (Array.isArray(node)) return node.map((n) => deref(doc, n, depth + 1)) as T;
  if (node === null || typeof node !== "object") return node;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === "string") {
    const target = ref
      .replace(/^#\//, "")
      .split("/")
      .reduce<unknown>((at, key) => (at as Record<string, unknown>)?.[key.replaceAll("~1", "/").replaceAll("~0", "~")], doc);
    if (target === undefined) throw new Error(`unresolved ${ref}`);
    return deref(doc, target as T, depth + 1);
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, deref(doc, v, depth + 1)])) as T;
}

export function parameters(op: Operation): Parameter[] {
  return (op.parameters ?? []) as Parameter[];
}

export function jsonBodySchema(op: Operation): Schema | undefined {
  return op.requestBody?.content["application/json"]?.schema;
}

const validators = new WeakMap<object, Validator>();

/** What is wrong with a value by a schema of the document (empty when it conforms). */
export function schemaProblems(schema: Schema, value: unknown): string[] {
  let validator = validators.get(schema);
  if (!validator) {
    validator = new Validator(schema as never, "2020-12", false);
    validators.set(schema, validator);
  }
  const result = validator.validate(value);
  if (result.valid) return [];
  // The leaf errors say what is wrong; the wrapping ones ("properties", "items") only say where.
  const leaves = result.errors.filter((e) => !["properties", "items", "anyOf", "$ref"].includes(e.keyword));
  return (leaves.length > 0 ? leaves : result.errors).slice(0, 5).map((e) => `${e.instanceLocation}: ${e.error}`);
}

/** Problems of a response against the document: an undocumented status, or a body its schema rejects. */
export function responseProblems(op: Operation, status: number, contentType: string | null, body: unknown): string[] {
  const documented = op.responses[String(status)];
  if (!documented) return [`status ${status} is not documented (documented: ${Object.keys(op.responses).join(", ")})`];
  const media = Object.entries(documented.content ?? {});
  if (media.length === 0) return body === null || body === "" ? [] : [`status ${status} documents no body, got one`];
  const [type, { schema }] = media.find(([t]) => contentType?.startsWith(t)) ?? media[0]!;
  if (!contentType?.startsWith(type)) return [`content type ${contentType} is not the documented ${type}`];
  if (!schema || type !== "application/json") return [];
  return schemaProblems(schema, body);
}
