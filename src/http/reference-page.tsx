/**
 * GET /docs: the API reference as one server-rendered page, read from the OpenAPI document. No
 * script, so it paints as it arrives, also offline and under load (Swagger UI, 1.7 MB of script,
 * took ~8 s to first paint under load; it stays at /docs/try for trying requests). Each operation:
 * its auth, parameters, body and responses, with schemas as nested lists; shared schemas and error
 * answers are written once, at the end, and linked.
 */
import type { FC } from "hono/jsx";
import type { OpenAPIV3_1 } from "openapi-types";
import type { OpenApiDocument } from "./docs/document";

type Schema = OpenAPIV3_1.SchemaObject | OpenAPIV3_1.ReferenceObject;
type Operation = OpenAPIV3_1.OperationObject;
type Response = OpenAPIV3_1.ResponseObject | OpenAPIV3_1.ReferenceObject;
type Parameter = OpenAPIV3_1.ParameterObject;

const METHODS = ["get", "post", "put", "patch", "delete"] as const;
/** Nested schemas deeper than this are cut with "…": no Recall body nests deeper, and a cycle would stop here. */
const MAX_DEPTH = 8;

const isRef = (x: object): x is OpenAPIV3_1.ReferenceObject => "$ref" in x;
const refName = (ref: string) => ref.slice(ref.lastIndexOf("/") + 1);

/** Text with `code` spans, as the document's descriptions write them. */
const Text: FC<{ text: string | undefined }> = ({ text }) => (
  <>{(text ?? "").split("`").map((part, k) => (k % 2 === 1 ? <code>{part}</code> : part))}</>
);

const Paragraphs: FC<{ text: string | undefined }> = ({ text }) => (
  <>
    {(text ?? "")
      .split(/\n\s*\n/)
      .filter((p) => p.trim() !== "")
      .map((p) => (
        <p>
          <Text text={p} />
        </p>
      ))}
  </>
);

/** "string, 1..2000 characters", "integer 1..50, default 10", "one of a | b", "Memory" (a link). */
function typeOf(schema: Schema): string {
  if (isRef(schema)) return refName(schema.$ref);
  const s = schema as OpenAPIV3_1.SchemaObject & { const?: unknown };
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return `one of ${s.enum.map((v) => JSON.stringify(v)).join(" | ")}`;
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return alternatives.map(typeOf).join(" or ");
  const types = Array.isArray(s.type) ? s.type.join(" or ") : (s.type ?? "any");
  const facts = [s.type === "array" && s.items ? `array of ${typeOf(s.items)}` : types];
  // zod writes every integer's safe-integer bounds: a bound a reader needs is narrower.
  const bound = (x: number | undefined) => (x === undefined || Math.abs(x) >= Number.MAX_SAFE_INTEGER ? undefined : x);
  const [min, max] = [bound(s.minimum), bound(s.maximum)];
  if (min !== undefined || max !== undefined) facts.push(`${min ?? "…"}..${max ?? "…"}`);
  if (s.minLength !== undefined || s.maxLength !== undefined) facts.push(`${s.minLength ?? 0}..${s.maxLength ?? "…"} characters`);
  if (s.minItems !== undefined || s.maxItems !== undefined) facts.push(`${s.minItems ?? 0}..${s.maxItems ?? "…"} items`);
  if (s.format) facts.push(s.format);
  if (s.default !== undefined) facts.push(`default ${JSON.stringify(s.default)}`);
  return facts.join(", ");
}

/** The object (or array of objects) whose fields a schema has, if any. */
function fieldsOf(schema: Schema): OpenAPIV3_1.SchemaObject | null {
  if (isRef(schema)) return null;
  if (schema.type === "array" && schema.items && !isRef(schema.items)) return fieldsOf(schema.items);
  const alternative = (schema.anyOf ?? schema.oneOf)?.find((s) => !isRef(s) && fieldsOf(s) !== null);
  if (alternative) return fieldsOf(alternative);
  return schema.properties ? schema : null;
}

const TypeName: FC<{ schema: Schema }> = ({ schema }) =>
  isRef(schema) ? <a href={`#schema-${refName(schema.$ref)}`}>{refName(schema.$ref)}</a> : <span class="type">{typeOf(schema)}</span>;

/** A schema's fields as a nested list: name, type, required, description. */
const Fields: FC<{ schema: Schema; depth?: number }> = ({ schema, depth = 0 }) => {
  const object = fieldsOf(schema);
  if (!object?.properties) return null;
  if (depth >= MAX_DEPTH) return <p class="muted">…</p>;
  const required = new Set(object.required ?? []);
  return (
    <ul class="fields">
      {Object.entries(object.properties).map(([name, field]) => (
        <li>
          <code>{name}</code> <TypeName schema={field} />
          {required.has(name) && <span class="required"> required</span>}
          {!isRef(field) && field.description && (
            <span class="desc">
              {" "}
              — <Text text={field.description} />
            </span>
          )}
          <Fields schema={field} depth={depth + 1} />
        </li>
      ))}
    </ul>
  );
};

const SchemaBlock: FC<{ schema: Schema | undefined; contentType: string }> = ({ schema, contentType }) =>
  schema === undefined ? null : (
    <div class="schema">
      <span class="muted">{contentType}</span> <TypeName schema={schema} />
      {!isRef(schema) && schema.description && (
        <span class="desc">
          {" "}
          — <Text text={schema.description} />
        </span>
      )}
      <Fields schema={schema} />
    </div>
  );

const Content: FC<{ content: Record<string, OpenAPIV3_1.MediaTypeObject> | undefined }> = ({ content }) => (
  <>
    {Object.entries(content ?? {}).map(([type, media]) => (
      <>
        <SchemaBlock schema={media.schema} contentType={type} />
        {media.example !== undefined && (
          <details>
            <summary>Example</summary>
            <pre>{JSON.stringify(media.example, null, 2)}</pre>
          </details>
        )}
      </>
    ))}
  </>
);

const Parameters: FC<{ parameters: Parameter[] }> = ({ parameters }) => (
  <table>
    <thead>
      <tr>
        <th>Parameter</th>
        <th>In</th>
        <th>Type</th>
        <th>Description</th>
      </tr>
    </thead>
    <tbody>
      {parameters.map((p) => (
        <tr>
          <td>
            <code>{p.name}</code>
            {p.required && <span class="required"> required</span>}
          </td>
          <td>{p.in}</td>
          <td>{p.schema && <TypeName schema={p.schema} />}</td>
          <td>
            <Text text={p.description} />
          </td>
        </tr>
      ))}
    </tbody>
  </table>
);

const Responses: FC<{ responses: Record<string, Response> }> = ({ responses }) => (
  <dl class="responses">
    {Object.entries(responses).map(([status, response]) =>
      isRef(response) ? (
        <>
          <dt>{status}</dt>
          <dd>
            <a href={`#response-${refName(response.$ref)}`}>the error envelope ({status})</a>
          </dd>
        </>
      ) : (
        <>
          <dt>{status}</dt>
          <dd>
            <Text text={response.description} />
            <Content content={response.content} />
          </dd>
        </>
      ),
    )}
  </dl>
);

function authOf(operation: Operation, doc: OpenApiDocument): string {
  const security = operation.security ?? doc.security ?? [];
  if (security.length === 0) return "Public: no key.";
  const names = security.flatMap((s) => Object.keys(s));
  return names.includes("bearer") ? "Authorization: Bearer <key>." : `Signed: ${names.join(" or ")}.`;
}

const OperationSection: FC<{ path: string; method: string; operation: Operation; doc: OpenApiDocument }> = ({
  path,
  method,
  operation,
  doc,
}) => {
  const parameters = (operation.parameters ?? []).filter((p): p is Parameter => !isRef(p));
  const body = operation.requestBody && !isRef(operation.requestBody) ? operation.requestBody : undefined;
  return (
    <section class="op" id={operation.operationId}>
      <h3>
        <span class={`method ${method}`}>{method.toUpperCase()}</span> <code>{path}</code>
      </h3>
      <p class="summary">{operation.summary}</p>
      <Paragraphs text={operation.description} />
      <p class="muted">{authOf(operation, doc)}</p>
      {parameters.length > 0 && <Parameters parameters={parameters} />}
      {body && (
        <>
          <h4>Request body{body.required ? "" : " (optional)"}</h4>
          <Content content={body.content} />
        </>
      )}
      <h4>Responses</h4>
      <Responses responses={(operation.responses ?? {}) as Record<string, Response>} />
    </section>
  );
};

interface Entry {
  path: string;
  method: string;
  operation: Operation;
}

function operationsByTag(doc: OpenApiDocument): Map<string, Entry[]> {
  const byTag = new Map<string, Entry[]>((doc.tags ?? []).map((t) => [t.name, []]));
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item?.[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? "Other";
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push({ path, method, operation });
    }
  }
  return new Map([...byTag].filter(([, entries]) => entries.length > 0));
}

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1b1f24;background:#f6f7f9}
header{background:#1b2230;color:#fff;padding:16px 24px}header a{color:#cfe0ff}
main{max-width:1080px;margin:0 auto;padding:16px 24px;display:grid;grid-template-columns:240px 1fr;gap:32px}
nav{position:sticky;top:0;max-height:100vh;overflow:auto;font-size:13px;padding-top:8px}
nav ul{list-style:none;padding-left:0;margin:0 0 12px}nav li a{text-decoration:none;color:#2450a6}
nav h2{font-size:13px;margin:12px 0 4px;text-transform:uppercase;letter-spacing:.04em;color:#57606a}
.op{background:#fff;border:1px solid #d8dee4;border-radius:8px;padding:4px 20px 12px;margin:0 0 20px}
h3{font-size:17px;word-break:break-all}h4{margin:16px 0 4px;font-size:14px}
.method{display:inline-block;min-width:64px;text-align:center;border-radius:4px;color:#fff;font-size:12px;padding:2px 6px;vertical-align:2px}
.get{background:#1f6feb}.post{background:#1a7f37}.put,.patch{background:#9a6700}.delete{background:#cf222e}
.summary{font-weight:600}.muted{color:#57606a;font-size:13px}.required{color:#cf222e;font-size:12px}
.type{color:#6e40c9;font-size:13px}.desc{color:#3d444d}
code{font:13px ui-monospace,monospace;background:#eff1f3;padding:1px 4px;border-radius:3px}
.fields{padding-left:18px;margin:4px 0}.fields li{margin:2px 0}
table{border-collapse:collapse;width:100%;font-size:14px;margin:8px 0}th,td{border-bottom:1px solid #d8dee4;text-align:left;padding:4px 8px;vertical-align:top}
dl.responses dt{font-weight:700;float:left;width:48px}dl.responses dd{margin:0 0 8px 56px}
pre{background:#f6f8fa;padding:8px;overflow:auto;font-size:12px}
@media (max-width:760px){main{display:block;padding:12px}nav{position:static;max-height:40vh;border-bottom:1px solid #d8dee4;margin-bottom:12px}}
`;

export const ReferencePage: FC<{ doc: OpenApiDocument; tryPath: string }> = ({ doc, tryPath }) => {
  const byTag = operationsByTag(doc);
  const errors = Object.entries(doc.components?.responses ?? {});
  const schemas = Object.entries(doc.components?.schemas ?? {});
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{doc.info.title} reference</title>
        <style>{STYLE}</style>
      </head>
      <body>
        <header>
          <strong>{doc.info.title}</strong> {doc.info.version} · <a href="/openapi.json">OpenAPI document</a> ·{" "}
          <a href={tryPath}>Try requests (Swagger UI)</a>
        </header>
        <main>
          <nav aria-label="Operations">
            {[...byTag].map(([tag, entries]) => (
              <>
                <h2>
                  <a href={`#tag-${tag}`}>{tag}</a>
                </h2>
                <ul>
                  {entries.map((e) => (
                    <li>
                      <a href={`#${e.operation.operationId}`}>{e.operation.summary ?? `${e.method.toUpperCase()} ${e.path}`}</a>
                    </li>
                  ))}
                </ul>
              </>
            ))}
            <h2>
              <a href="#errors">Errors</a> · <a href="#schemas">Schemas</a>
            </h2>
          </nav>
          <div>
            <h1>{doc.info.title}</h1>
            <Paragraphs text={doc.info.description} />
            {[...byTag].map(([tag, entries]) => (
              <>
                <h2 id={`tag-${tag}`}>{tag}</h2>
                {entries.map((e) => (
                  <OperationSection path={e.path} method={e.method} operation={e.operation} doc={doc} />
                ))}
              </>
            ))}
            <h2 id="errors">Errors</h2>
            {errors.map(([name, response]) => (
              <section class="op" id={`response-${name}`}>
                <h3>{name.replace(/^E/, "")}</h3>
                {!isRef(response) && (
                  <>
                    <Paragraphs text={response.description} />
                    <Content content={response.content} />
                  </>
                )}
              </section>
            ))}
            <h2 id="schemas">Schemas</h2>
            {schemas.map(([name, schema]) => (
              <section class="op" id={`schema-${name}`}>
                <h3>{name}</h3>
                <SchemaBlock schema={schema} contentType="" />
              </section>
            ))}
          </div>
        </main>
      </body>
    </html>
  );
};
