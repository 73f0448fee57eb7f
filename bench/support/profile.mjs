// CPU profiles of the Worker through Miniflare's V8 inspector (startWorker({ inspectorPort })), for
// which functions the CPU goes to. Read them as shares, not milliseconds: sampled, the Worker runs
// 1.5× slower, and at a 1 ms interval one function drew more time per request than the request's
// whole wall time. Server-Timing spans are the figures (locally the Worker's clock runs during CPU too).
import WebSocket from "ws";

/** A Chrome DevTools Protocol session with the Worker's isolate. */
export async function connect(port) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
  // Miniflare's own service workers are listed too; the Worker's is "core:user:<name>".
  const target = targets.find((t) => /core:user/.test(t.title ?? "")) ?? targets[0];
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  let nextId = 0;
  const pending = new Map();
  socket.on("message", (data) => {
    const message = JSON.parse(String(data));
    pending.get(message.id)?.(message);
    pending.delete(message.id);
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve) => {
        const id = ++nextId;
        pending.set(id, resolve);
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}

/** Runs `work` under the sampling profiler (every `intervalUs`; a shorter interval slows the Worker more) and returns the profile. */
export async function profile(port, work, intervalUs = Number(process.env.PROFILE_INTERVAL_US ?? 100)) {
  const inspector = await connect(port);
  try {
    await inspector.send("Profiler.enable");
    await inspector.send("Profiler.setSamplingInterval", { interval: intervalUs });
    await inspector.send("Profiler.start");
    await work();
    const { result } = await inspector.send("Profiler.stop");
    return result.profile;
  } finally {
    inspector.close();
  }
}

/** The functions with the most self and inclusive time, in ms per request. */
export function summarise(profile, requests, top = 20) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const name = (id) => {
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    return `${functionName || "(anonymous)"} ${url.split("/").pop()}:${lineNumber + 1}`;
  };
  const self = new Map();
  const inclusive = new Map();
  // For each function's self time, the caller chain that spent it (two frames up).
  const callers = new Map();
  profile.samples.forEach((sample, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    self.set(name(sample), (self.get(name(sample)) ?? 0) + dt);
    const up = [parent.get(sample), parent.get(parent.get(sample))].filter((id) => id !== undefined).map(name);
    const byCaller = callers.get(name(sample)) ?? new Map();
    byCaller.set(up.join(" < "), (byCaller.get(up.join(" < ")) ?? 0) + dt);
    callers.set(name(sample), byCaller);
    const seen = new Set();
    for (let id = sample; id !== undefined; id = parent.get(id)) {
      const key = name(id);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + dt);
    }
  });
  const table = (times) =>
    [...times]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([key, us]) => `  ${(us / 1000 / requests).toFixed(2).padStart(7)} ms  ${key}`)
      .join("\n");
  const ms = (us) => (us / 1000 / requests).toFixed(2).padStart(7);
  const spentBy = [...self]
    .filter(([key]) => !key.startsWith("("))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(
      ([key]) =>
        `  ${key}\n${[...callers.get(key)]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 3)
          .map(([chain, us]) => `    ${ms(us)} ms  < ${chain}`)
          .join("\n")}`,
    )
    .join("\n");
  return `CPU per request, self (in the function itself):\n${table(self)}\nThe top functions' self time by caller:\n${spentBy}\nCPU per request, inclusive (with what it calls):\n${table(inclusive)}\n(api.js is the bundle wrangler built: npx wrangler deploy --dry-run --outdir dist --env test)`;
}

/** Server-Timing's entries as name → ms. */
export function serverTiming(headers) {
  return Object.fromEntries(
    (headers.get("server-timing") ?? "")
      .split(",")
      .filter((part) => part.includes(";dur="))
      .map((part) => {
        const [name, dur] = part.trim().split(";dur=");
        return [name, Number(dur)];
      }),
  );
}
