// The pages a local SQLite database (a Miniflare D1 database, a Durable Object's storage) occupies,
// in all and table by table, read from its files on disk. workerd's D1 refuses `dbstat` and
// `PRAGMA page_count`, so the bench reads the file itself: the main file with the committed frames
// of its write-ahead log applied (https://www.sqlite.org/fileformat2.html#walformat), opened by
// sql.js (SQLite compiled to WASM). The pages a table holds (its rows, indexes and overflow pages)
// are the pages dropping it frees: exact, where a size estimated from row lengths would not be.
import { existsSync, readFileSync } from "node:fs";
import initSqlJs from "sql.js";

const WAL_HEADER = 32;
const FRAME_HEADER = 24;

/** The database file's bytes as a reader would see them after a checkpoint. */
export function sqliteImage(path) {
  const main = readFileSync(path);
  const walPath = `${path}-wal`;
  const wal = existsSync(walPath) ? readFileSync(walPath) : Buffer.alloc(0);
  const committed = committedFrames(wal);
  if (!committed) return new Uint8Array(main);
  const image = new Uint8Array(committed.pages * committed.pageSize);
  image.set(main.subarray(0, image.length));
  for (const [page, bytes] of committed.frames) image.set(bytes, (page - 1) * committed.pageSize);
  return image;
}

/**
 * The last version of each page written by a committed transaction of the log, and the database's
 * size in pages after the last commit; null for an empty or reset log. A frame counts when its
 * salts are the header's and the running checksum holds, as SQLite's own recovery reads it.
 */
function committedFrames(wal) {
  if (wal.length < WAL_HEADER) return null;
  const magic = wal.readUInt32BE(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return null;
  const bigEndian = magic === 0x377f0683;
  const pageSize = wal.readUInt32BE(8) === 1 ? 65536 : wal.readUInt32BE(8);
  const salts = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  let sum = checksum(wal.subarray(0, 24), [0, 0], bigEndian);
  if (sum[0] !== wal.readUInt32BE(24) || sum[1] !== wal.readUInt32BE(28)) return null;
  const pending = new Map();
  let frames = null;
  let pages = 0;
  for (let at = WAL_HEADER; at + FRAME_HEADER + pageSize <= wal.length; at += FRAME_HEADER + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salts[0] || wal.readUInt32BE(at + 12) !== salts[1]) break;
    sum = checksum(wal.subarray(at, at + 8), sum, bigEndian);
    sum = checksum(wal.subarray(at + FRAME_HEADER, at + FRAME_HEADER + pageSize), sum, bigEndian);
    if (sum[0] !== wal.readUInt32BE(at + 16) || sum[1] !== wal.readUInt32BE(at + 20)) break;
    pending.set(wal.readUInt32BE(at), wal.subarray(at + FRAME_HEADER, at + FRAME_HEADER + pageSize));
    const commitSize = wal.readUInt32BE(at + 4);
    if (commitSize > 0) {
      frames = new Map(pending);
      pages = commitSize;
    }
  }
  return frames && { frames, pages, pageSize };
}

/** SQLite's WAL checksum: pairs of 32-bit words, in the byte order the magic names. */
function checksum(bytes, [s0, s1], bigEndian) {
  for (let i = 0; i < bytes.length; i += 8) {
    const x0 = bigEndian ? bytes.readUInt32BE(i) : bytes.readUInt32LE(i);
    const x1 = bigEndian ? bytes.readUInt32BE(i + 4) : bytes.readUInt32LE(i + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}

let sqlJs;

/**
 * The bytes in use (pages less the free list) in all and per table, of a database image. `rewrite`
 * runs SQL on the image first (the bench widens the stored vectors to production's size with it).
 */
export async function bytesByTable(image, rewrite = "") {
  sqlJs ??= await initSqlJs();
  const db = new sqlJs.Database(image);
  try {
    if (rewrite) db.run(rewrite);
    const scalar = (sql) => db.exec(sql)[0].values[0][0];
    const pageSize = scalar("PRAGMA page_size");
    const inUse = () => scalar("PRAGMA page_count") - scalar("PRAGMA freelist_count");
    const total = inUse() * pageSize;
    const tables = db.exec("SELECT name FROM sqlite_schema WHERE type = 'table' AND rootpage > 0 AND name NOT LIKE 'sqlite_%'");
    const byTable = {};
    for (const [name] of tables[0]?.values ?? []) {
      const before = inUse();
      db.run(`DROP TABLE "${name.replaceAll('"', '""')}"`);
      byTable[name] = (before - inUse()) * pageSize;
    }
    return { pageSize, total, byTable };
  } finally {
    db.close();
  }
}
