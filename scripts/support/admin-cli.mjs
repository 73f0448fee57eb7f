// What the admin commands (cards:backfill, fts:rebuild) share: `--url`, `--key` and `--batch`
// (or RECALL_URL / RECALL_API_KEY), and the typed API client (src/client/client.ts) bound to them.
import { hc } from "hono/client";

export function adminCli(argv = process.argv.slice(2)) {
  const args = Object.fromEntries(
    argv
      .join(" ")
      .split(/\s*--/)
      .filter(Boolean)
      .map((pair) => pair.split(/\s+/)),
  );
  const url = args.url ?? process.env.RECALL_URL ?? "http://127.0.0.1:8787";
  const key = args.key ?? process.env.RECALL_API_KEY ?? process.env.RECALL_DEV_API_KEY ?? "rk_dev_local_only_change_me";
  /** Editors check calls against the route types. @type {import("../../src/client/client").RecallClient} */
  const api = hc(url, { headers: { authorization: `Bearer ${key}` } });
  return { api, batchSize: Number(args.batch ?? 200) };
}

/** Prints the failed call's status and body and exits 1. */
export async function failWith(what, response) {
  console.error(`\n${what} failed: ${response.status} ${await response.text()}`);
  process.exit(1);
}
