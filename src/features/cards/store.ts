/**
 * Card storage and versioning. A single-valued slot (user_type, location, …) has one current
 * card per (tenant, scope, entity, slot): the one whose source memory is newest ("newest wins",
 * even when an older memory is backfilled later). Multi-valued slots (likes) collect distinct
 * values. Lookups use the (tenant_id, scope, entity, slot) index.
 */
import type { MemoryCard } from "../../platform/db/schema";
import { newId } from "../../core/base/ids";
import { MULTI_VALUED_SLOTS } from "../../core/text/card-words";
import type { ExtractedCard } from "../../core/text/cards";

export interface CardSource {
  tenantId: string;
  scope: string;
  memoryId: string;
  /** When the source memory was created: the card's version time. */
  createdAt: number;
}

export interface CardRow {
  id: string;
  kind: MemoryCard["kind"];
  entity: string;
  slot: string;
  value: string;
  polarity: MemoryCard["polarity"];
  confidence: number;
  version_key: string;
  version_relation: MemoryCard["versionRelation"];
  source_memory_id: string;
  created_at: number;
  superseded_at: number | null;
  event_date: number | null;
  document_date: number | null;
  extra: string | null;
}

const CARD_COLUMNS =
  "id, kind, entity, slot, value, polarity, confidence, version_key, version_relation, source_memory_id, created_at, superseded_at, event_date, document_date, extra";

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toCardView(row: CardRow) {
  return {
    id: row.id,
    kind: row.kind,
    entity: row.entity,
    slot: row.slot,
    value: row.value,
    polarity: row.polarity,
    confidence: row.confidence,
    versionKey: row.version_key,
    versionRelation: row.version_relation,
    sourceMemoryId: row.source_memory_id,
    createdAt: new Date(row.created_at).toISOString(),
    eventDate: isoOrNull(row.event_date),
    documentDate: isoOrNull(row.document_date ?? row.created_at),
    extra: row.extra === null ? null : (JSON.parse(row.extra) as Record<string, string>),
    current: row.superseded_at === null,
  };
}
export type CardView = ReturnType<typeof toCardView>;

/** likes ↔ dislikes: a value stated in one ends the same value in the other. */
const OPPOSITE_SLOT: Readonly<Record<string, string>> = { likes: "dislikes", dislikes: "likes" };

const sameValue = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Stores extracted cards, versioning each against the slot's current card(s); returns how many
 * were stored. A retraction ("I no longer live in Austin") ends the matching current value and is
 * kept as a `retracts` version that is never current itself; a later statement of the opposite
 * polarity ("I don't like jazz" after "I like jazz") ends the other slot's value.
 */
export async function storeCards(db: D1Database, source: CardSource, cards: readonly ExtractedCard[]): Promise<number> {
  let stored = 0;
  for (const card of cards) {
    const current = await currentCards(db, source.tenantId, source.scope, card.entity, card.slot);
    const statements: D1PreparedStatement[] = [];
    const end = (ids: readonly string[]) => {
      for (const id of ids) {
        statements.push(
          db
            .prepare("UPDATE memory_cards SET superseded_at = ?, superseded_by = ? WHERE id = ?")
            .bind(source.createdAt, source.memoryId, id),
        );
      }
    };
    const notNewer = (c: CardRow) => c.created_at <= source.createdAt;
    let relation: CardRow["version_relation"] = "sets";
    let supersededAt: number | null = null;
    if (card.retracts) {
      relation = "retracts";
      supersededAt = source.createdAt;
      // "I no longer live there" names no value (extra.refersTo, src/core/text/cards.ts): it ends the current one.
      const refersToCurrent = card.extra?.refersTo === "current";
      end(current.filter((c) => (refersToCurrent || sameValue(c.value, card.value)) && notNewer(c)).map((c) => c.id));
    } else if (MULTI_VALUED_SLOTS.has(card.slot)) {
      if (current.some((c) => sameValue(c.value, card.value))) continue;
      if (current.length > 0) relation = "extends";
    } else {
      const existing = current[0];
      if (existing) {
        relation = existing.value === card.value ? "sets" : "updates";
        if (notNewer(existing)) end([existing.id]);
        // An older statement arriving late (backfill): stored as history, not as the current value.
        else supersededAt = existing.created_at;
      }
    }
    const opposite = OPPOSITE_SLOT[card.slot];
    if (opposite && !card.retracts) {
      const contradicted = await currentCards(db, source.tenantId, source.scope, card.entity, opposite);
      end(contradicted.filter((c) => sameValue(c.value, card.value) && notNewer(c)).map((c) => c.id));
    }
    statements.push(
      db
        .prepare(
          `INSERT INTO memory_cards (id, tenant_id, scope, kind, entity, slot, value, polarity, confidence, version_key,
             version_relation, source_memory_id, created_at, superseded_at, event_date, document_date, extra)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .bind(
          newId("card"),
          source.tenantId,
          source.scope,
          card.kind,
          card.entity,
          card.slot,
          card.value,
          card.polarity,
          card.confidence,
          `${card.entity}:${card.slot}`,
          relation,
          source.memoryId,
          source.createdAt,
          supersededAt,
          card.eventDate,
          source.createdAt,
          card.extra === null ? null : JSON.stringify(card.extra),
        ),
    );
    await db.batch(statements);
    stored++;
  }
  return stored;
}

/** The current cards of a slot, newest first. */
export async function currentCards(db: D1Database, tenantId: string, scope: string, entity: string, slot: string): Promise<CardRow[]> {
  const { results } = await currentCardsQuery(db, tenantId, scope, entity, slot).all<CardRow>();
  return results;
}

function currentCardsQuery(db: D1Database, tenantId: string, scope: string, entity: string, slot: string) {
  return db
    .prepare(
      `SELECT ${CARD_COLUMNS} FROM memory_cards
       WHERE tenant_id = ? AND scope = ? AND entity = ? AND slot = ? AND superseded_at IS NULL
       ORDER BY created_at DESC, id`,
    )
    .bind(tenantId, scope, entity, slot);
}

/**
 * The current cards answering any of the slots, in slot order: what a question-type lookup
 * returns. One D1 round trip whatever the number of slots (a preference question asks two).
 */
export async function lookupCards(db: D1Database, tenantId: string, scope: string, entity: string, slots: readonly string[]) {
  if (slots.length === 0) return [];
  const results = await db.batch<CardRow>(slots.map((slot) => currentCardsQuery(db, tenantId, scope, entity, slot)));
  return results.flatMap((r) => r.results);
}

export interface CardFilter {
  scope: string;
  entity?: string | undefined;
  slot?: string | undefined;
  limit: number;
  /** The (created_at, id) of the previous page's last card. */
  after?: readonly [number, string] | undefined;
}

/** Cards of a scope, current and past, newest first. */
export async function listCards(db: D1Database, tenantId: string, filter: CardFilter): Promise<CardView[]> {
  const where = ["tenant_id = ?", "scope = ?"];
  const params: (string | number)[] = [tenantId, filter.scope];
  if (filter.entity) {
    where.push("entity = ?");
    params.push(filter.entity);
  }
  if (filter.slot) {
    where.push("slot = ?");
    params.push(filter.slot);
  }
  if (filter.after) {
    where.push("(created_at < ? OR (created_at = ? AND id > ?))");
    params.push(filter.after[0], filter.after[0], filter.after[1]);
  }
  const { results } = await db
    .prepare(`SELECT ${CARD_COLUMNS} FROM memory_cards WHERE ${where.join(" AND ")} ORDER BY created_at DESC, id LIMIT ?`)
    .bind(...params, filter.limit)
    .all<CardRow>();
  return results.map(toCardView);
}

/**
 * Removes the cards a memory gave rise to, and undoes what its statement ended: the newest
 * remaining card of each affected single-valued slot becomes current again, and the values of
 * multi-valued slots it ended (a retracted or contradicted like) are current again unless the same
 * value is current anyway.
 */
export async function deleteCardsOfMemory(db: D1Database, tenantId: string, memoryId: string): Promise<void> {
  const { results } = await db
    .prepare("SELECT DISTINCT scope, entity, slot FROM memory_cards WHERE tenant_id = ? AND source_memory_id = ?")
    .bind(tenantId, memoryId)
    .all<{ scope: string; entity: string; slot: string }>();
  if (results.length === 0) return;
  const multiValued = [...MULTI_VALUED_SLOTS];
  await db.batch([
    db.prepare("DELETE FROM memory_cards WHERE tenant_id = ? AND source_memory_id = ?").bind(tenantId, memoryId),
    db
      .prepare(
        `UPDATE memory_cards SET superseded_at = NULL, superseded_by = NULL
         WHERE tenant_id = ? AND superseded_by = ? AND slot IN (${multiValued.map(() => "?").join(",")})
           AND NOT EXISTS (SELECT 1 FROM memory_cards c WHERE c.tenant_id = memory_cards.tenant_id AND c.scope = memory_cards.scope
             AND c.entity = memory_cards.entity AND c.slot = memory_cards.slot AND lower(c.value) = lower(memory_cards.value) AND c.superseded_at IS NULL)`,
      )
      .bind(tenantId, memoryId, ...multiValued),
    ...results
      .filter((r) => !MULTI_VALUED_SLOTS.has(r.slot))
      .map((r) =>
        db
          .prepare(
            `UPDATE memory_cards SET superseded_at = NULL, superseded_by = NULL WHERE id = (
               SELECT id FROM memory_cards WHERE tenant_id = ? AND scope = ? AND entity = ? AND slot = ? AND version_relation != 'retracts'
               ORDER BY created_at DESC, id LIMIT 1)
             AND NOT EXISTS (SELECT 1 FROM memory_cards WHERE tenant_id = ? AND scope = ? AND entity = ? AND slot = ? AND superseded_at IS NULL)`,
          )
          .bind(tenantId, r.scope, r.entity, r.slot, tenantId, r.scope, r.entity, r.slot),
      ),
  ]);
}
