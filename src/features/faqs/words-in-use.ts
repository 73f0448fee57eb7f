/**
 * Which of some words the tenant's live FAQs already say (question or answer), through the FTS5
 * index: a word the knowledge base says is its own vocabulary ("Alexa", "Okta"), not a customer's
 * name, however much it looks like one (the ticket cleaning asks, features/tickets/vocabulary.ts).
 * One D1 round trip for every word.
 */
import { vocabularyQuery } from "./port";

export async function wordsInUseD1(db: D1Database, tenantId: string, words: readonly string[]): Promise<Set<string>> {
  const asked = vocabularyQuery(words);
  if (asked.length === 0) return new Set();
  const found = await db.batch<{ n: number }>(
    asked.map((word) =>
      db
        .prepare(
          `SELECT count(*) AS n FROM faqs_fts JOIN faqs f ON f.seq = faqs_fts.rowid
           WHERE faqs_fts MATCH ? AND f.tenant_id = ? AND f.deleted_at IS NULL`,
        )
        // A phrase in double quotes: the word as text, never FTS5 syntax.
        .bind(`"${word.replaceAll('"', '""')}"`, tenantId),
    ),
  );
  return new Set(asked.filter((_, i) => (found[i]?.results[0]?.n ?? 0) > 0));
}
