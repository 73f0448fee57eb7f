/**
 * A local Postgres for tests, `npm start -- --postgres` and the bench, reached the way Neon's
 * driver reaches Neon: PGlite (Postgres in WASM) with pgvector, served over the Postgres wire
 * protocol by @electric-sql/pglite-socket, behind a WebSocket→TCP proxy like Neon's own wsproxy.
 * Neon's Pool then runs unchanged with `neonConfig.wsProxy` pointed here (see src/db/pg/client.ts).
 * PGlite is one session shared by every connection: no isolation between concurrent transactions.
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
  /** While on, bytes are held in both directions: a database that accepts but does not answer. */
  const stall = { on: false, held: [] };
  wss.on("connection", (ws, request) => {
    const address = new URL(request.url ?? "/", "http://x").searchParams.get("address") ?? "";
    const [host, port] = address.split(":");
    if (host !== "127.0.0.1" && host !== "localhost") return ws.close(1008, "only local targets");
    const tcp = net.connect({ host: "127.0.0.1", port: Number(port) });
    sockets.add(tcp);
    const pending = [];
    const toServer = (data) => {
      if (tcp.connecting || stall.on) pending.push(data);
      else tcp.write(data);
      // A real Postgres closes the connection on Terminate ('X'); PGlite's socket server does not,
      // and workerd may keep the WebSocket's TCP open after closing it: close it here.
      if (isTerminate(data)) tcp.end();
    };
    const toClient = (data) => (stall.on ? stall.held.push(() => toClient(data)) : ws.readyState === ws.OPEN && ws.send(data));
    flushers.add(() => !tcp.connecting && pending.splice(0).forEach((b) => tcp.write(b)));
    tcp.on("connect", () => !stall.on && pending.splice(0).forEach((b) => tcp.write(b)));
    ws.on("message", toServer);
    tcp.on("data", toClient);
    const end = () => {
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

/** The frontend's Terminate message: 'X' then the length 4. */
function isTerminate(data) {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data);
  return bytes.length >= 5 && bytes[bytes.length - 5] === 0x58 && bytes.readInt32BE(bytes.length - 4) === 4;
}
