/**
 * One JSON POST with node:http(s). Not fetch: in a fresh process Node's fetch first loads and
 * compiles undici, which cost more than the whole request on this machine (the hook runs as a
 * new process for every prompt, so start-up is most of its time). TLS is loaded only for https.
 */

export interface PostReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * Why a request got no reply, in words: a timeout says the service was slow (it may well have
 * accepted the connection), anything else that it could not be reached.
 */
export function unreachable(url: string, error: Error & { code?: string }, timeoutMs: number): Error {
  const timedOut = error.name === "TimeoutError" || error.name === "AbortError" || error.code === "ABORT_ERR";
  return new Error(
    timedOut ? `${url} gave no answer within ${timeoutMs / 1000} s` : `cannot reach ${url} (${error.code ?? error.message})`,
  );
}

export async function postJson(url: string, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<PostReply> {
  const target = new URL(url);
  const { request } = target.protocol === "https:" ? await import("node:https") : await import("node:http");
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      { method: "POST", signal, headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** A POST of `body` to the service's `path` with the configured key; the JSON answer, or an Error naming the path and the service's message. */
export async function callApi(
  config: { url: string; apiKey?: string | undefined },
  path: string,
  body: unknown,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  const reply = await postJson(
    `${config.url}${path}`,
    { authorization: `Bearer ${config.apiKey ?? ""}` },
    JSON.stringify(body),
    AbortSignal.timeout(timeoutMs),
  ).catch((error: Error & { code?: string }) => {
    throw unreachable(config.url, error, timeoutMs);
  });
  const json = JSON.parse(reply.text || "{}") as Record<string, unknown> & { error?: { message?: string } };
  if (reply.status >= 400) throw new Error(`${path}: HTTP ${reply.status}: ${json.error?.message ?? reply.text.slice(0, 200)}`);
  return json;
}
