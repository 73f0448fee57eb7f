/**
 * A local Postgres for tests, `npm start -- --postgres` and the bench, reached the way Neon's
 * driver reaches Neon: PGlite (Postgres in WASM) with pgvector, served over the Postgres wire
 * protocol by @electric-sql/pglite-socket, behind a WebSocket→TCP proxy like Neon's own wsproxy.
 * Neon's Pool then runs unchanged with `neonConfig.wsProxy` pointed here (see src/platform/db/pg/client.ts).
 * PGlite is one session shared by every connection, and its socket server interleaves
 * connections message by message: the proxy lets one connection at a time talk to it (see
 * `sessionTurns`), which keeps one connection's statements and results its own.
 */
import net from "node:net";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { WebSocketServer } from "ws";

/** Connections the socket server accepts at once (they share PGlite's one session, queued). */
export const MAX_CONNECTIONS = 20;

/** Starts Postgres + the socket + the proxy on free 127.0.0.1 ports. */
export async function startLocalPostgres({ dataDir } = {}) {
  const db = await PGlite.create(dataDir, { extensions: { vector } });
  const pg = new PGLiteSocketServer({ db, port: 0, host: "127.0.0.1", maxConnections: MAX_CONNECTIONS });
  await pg.start();
  const pgPort = Number(pg.getServerConn().split(":").at(-1));
  const proxy = await startWsProxy();
  let server = pg;
  return {
    db,
    pgPort,
    proxyPort: proxy.port,
    /** What DATABASE_URL holds; the host part is rewritten to 127.0.0.1:pgPort by the proxy. */
    databaseUrl: `postgres://postgres:postgres@127.0.0.1:${pgPort}/postgres`,
    /** Stops accepting connections and drops the open ones (the data stays): a database outage. */
    /** Connections open on the Postgres side now. */
    activeConnections: () => server.getStats().activeConnections,
    pause: () => server.stop().catch(() => {}),
    /** Holds every byte between clients and Postgres (a slow or hung database), until unstall(). */
    stall: () => proxy.stall(),
    unstall: () => proxy.unstall(),
    resume: async () => {
      server = new PGLiteSocketServer({ db, port: pgPort, host: "127.0.0.1", maxConnections: MAX_CONNECTIONS });
      await server.start();
    },
    stop: async () => {
      await proxy.close();
      await server.stop().catch(() => {});
      await db.close();
    },
  };
}

/**
 * Neon's WebSocket protocol is raw Postgres bytes in binary frames: `/v1?address=host:port`
 * names the TCP target. Only 127.0.0.1 targets are allowed (this is a test tool, not an open relay).
 */
export async function startWsProxy() {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  const sockets = new Set();
  const flushers = new Set();
  const turns = sessionTurns();
  /** While on, bytes are held in both directions: a database that accepts but does not answer. */
  const stall = { on: false, held: [] };
  wss.on("connection", (ws, request) => {
    const address = new URL(request.url ?? "/", "http://x").searchParams.get("address") ?? "";
    const [host, port] = address.split(":");
    if (host !== "127.0.0.1" && host !== "localhost") return ws.close(1008, "only local targets");
    const tcp = net.connect({ host: "127.0.0.1", port: Number(port) });
    sockets.add(tcp);
    const pending = [];
    const write = (data) => {
      if (tcp.connecting || stall.on) pending.push(data);
      else tcp.write(data);
      // A real Postgres closes the connection on Terminate ('X'); PGlite's socket server does not,
      // and workerd may keep the WebSocket's TCP open after closing it: close it here.
      if (isTerminate(data)) tcp.end();
    };
    const turn = turns.join(write);
    const toClient = (data) => (stall.on ? stall.held.push(() => toClient(data)) : ws.readyState === ws.OPEN && ws.send(data));
    flushers.add(() => !tcp.connecting && pending.splice(0).forEach((b) => tcp.write(b)));
    tcp.on("connect", () => !stall.on && pending.splice(0).forEach((b) => tcp.write(b)));
    ws.on("message", (data) => turn.send(Buffer.isBuffer(data) ? data : Buffer.from(data)));
    tcp.on("data", (data) => {
      toClient(data);
      turn.received(data);
    });
    const end = () => {
      turn.leave();
      sockets.delete(tcp);
      tcp.destroy();
      if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.terminate();
    };
    tcp.on("close", end);
    tcp.on("error", end);
    ws.on("close", end);
    ws.on("error", end);
  });
  await new Promise((resolve) => wss.once("listening", resolve));
  return {
    port: wss.address().port,
    stall: () => {
      stall.on = true;
    },
    unstall: () => {
      stall.on = false;
      stall.held.splice(0).forEach((send) => send());
      for (const flush of flushers) flush();
    },
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        for (const c of wss.clients) c.terminate();
        wss.close(() => resolve());
      }),
  };
}

/**
 * One connection at a time talks to PGlite. Its socket server runs each protocol message as it
 * comes, whichever connection sent it, and PGlite has one session: another connection's Parse
 * between this one's Parse and Execute replaces the unnamed statement, and this one reads the
 * other's rows. So a connection takes a turn with its first byte and keeps it until Postgres
 * says ReadyForQuery outside a transaction ('Z', status 'I'); the others' bytes wait their turn.
 * A real Postgres gives each connection its own session, so Neon needs none of this.
 */
function sessionTurns() {
  let holder = null;
  const waiting = [];
  const next = () => {
    holder = waiting.shift() ?? null;
    holder?.flush();
  };
  return {
    join(write) {
      const queued = [];
      const server = serverMessages();
      const turn = {
        flush: () => queued.splice(0).forEach(write),
        send(data) {
          server.expectSslAnswer(data);
          if (holder === turn) return write(data);
          queued.push(data);
          if (holder === null) {
            holder = turn;
            turn.flush();
          } else if (!waiting.includes(turn)) waiting.push(turn);
        },
        received(data) {
          // Parsed whoever holds the turn, so the message boundaries stay known.
          if (server.idleAfter(data) && holder === turn) next();
        },
        leave() {
          const at = waiting.indexOf(turn);
          if (at >= 0) waiting.splice(at, 1);
          if (holder === turn) next();
        },
      };
      return turn;
    },
  };
}

/** Reads the backend's messages (a type byte, then a length that counts itself) across chunks. */
function serverMessages() {
  let buffered = Buffer.alloc(0);
  let sslAnswer = false;
  return {
    /** An SSLRequest (length 8, code 80877103) is answered by one byte, 'N' or 'S', with no length. */
    expectSslAnswer(data) {
      if (data.length === 8 && data.readInt32BE(0) === 8 && data.readInt32BE(4) === 80877103) sslAnswer = true;
    },
    /** Whether these bytes end with a ReadyForQuery outside a transaction. */
    idleAfter(data) {
      buffered = buffered.length ? Buffer.concat([buffered, data]) : data;
      if (sslAnswer && buffered.length > 0) {
        sslAnswer = false;
        buffered = buffered.subarray(1);
      }
      let idle = false;
      while (buffered.length >= 5) {
        const length = 1 + buffered.readInt32BE(1);
        if (buffered.length < length) break;
        idle = buffered[0] === 0x5a && buffered[5] === 0x49; // 'Z', 'I'
        buffered = buffered.subarray(length);
      }
      return idle;
    },
  };
}

/** The frontend's Terminate message: 'X' then the length 4. */
function isTerminate(bytes) {
  return bytes.length >= 5 && bytes[bytes.length - 5] === 0x58 && bytes.readInt32BE(bytes.length - 4) === 4;
}
