/**
 * The local Postgres (scripts/local-postgres.mjs): PGlite has one session for every connection,
 * and its socket server runs protocol messages as they come, whoever sent them. Two connections
 * whose extended-protocol messages arrive interleaved must still each read their own rows, as on
 * a real Postgres (two Worker requests reading two tickets once got each other's).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { WebSocket } from "ws";
// @ts-expect-error: plain ESM modules shared with `npm start` and the bench
import { startLocalPostgres } from "../../scripts/local-postgres.mjs";

let postgres: { pgPort: number; proxyPort: number; stop(): Promise<void> };
beforeAll(async () => {
  postgres = await startLocalPostgres();
}, 60_000);
afterAll(() => postgres?.stop());

const int16 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
const int32 = (n: number) => Buffer.from([n >>> 24, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]);
const text = (s: string) => Buffer.from(`${s}\0`);
const message = (type: string, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from(type), int32(4 + body.length), body]);
};
const READY = Buffer.from([0x5a, 0, 0, 0, 5]); // ReadyForQuery

/** A connection through the proxy, as Neon's driver makes one, speaking the wire protocol by hand. */
async function connect() {
  const ws = new WebSocket(`ws://127.0.0.1:${postgres.proxyPort}/v1?address=127.0.0.1:${postgres.pgPort}`);
  await new Promise((resolve) => ws.once("open", resolve));
  let received = Buffer.alloc(0);
  ws.on("message", (data: Buffer) => (received = Buffer.concat([received, data])));
  const ready = async () => {
    while (!received.includes(READY)) await new Promise((resolve) => setTimeout(resolve, 5));
    const answer = received;
    received = Buffer.alloc(0);
    return answer;
  };
  const startup = Buffer.concat([int32(196608), text("user"), text("postgres"), text("database"), text("postgres"), Buffer.from([0])]);
  ws.send(Buffer.concat([int32(4 + startup.length), startup]));
  await ready();
  return { send: (bytes: Buffer) => ws.send(bytes), ready, close: () => ws.close() };
}

/** The first column of each DataRow, and each ErrorResponse as "error". */
function rowsOf(answer: Buffer): string[] {
  const rows: string[] = [];
  for (let at = 0; at + 5 <= answer.length; at += 1 + answer.readInt32BE(at + 1)) {
    if (answer[at] === 0x44) rows.push(answer.subarray(at + 11, at + 11 + answer.readInt32BE(at + 7)).toString());
    if (answer[at] === 0x45) rows.push("error");
  }
  return rows;
}

it("gives each of two connections its own rows when their statements' messages arrive interleaved", async () => {
  const [a, b] = [await connect(), await connect()];
  const parse = message("P", text(""), text("SELECT $1::text AS who"), int16(0));
  const bind = (who: string) => message("B", text(""), text(""), int16(0), int16(1), int32(who.length), Buffer.from(who), int16(0));
  const execute = Buffer.concat([message("E", text(""), int32(0)), message("S")]);
  const beat = () => new Promise((resolve) => setTimeout(resolve, 30));
  try {
    // Each message in a frame of its own, a beat apart: the order a busy machine can deliver them in.
    for (const [conn, bytes] of [
      [a, parse],
      [b, parse],
      [a, bind("a")],
      [b, bind("b")],
      [a, execute],
      [b, execute],
    ] as const) {
      conn.send(bytes);
      await beat();
    }
    expect([rowsOf(await a.ready()), rowsOf(await b.ready())]).toEqual([["a"], ["b"]]);
  } finally {
    a.close();
    b.close();
  }
});
