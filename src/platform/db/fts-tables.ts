/**
 * The FTS5 virtual tables (hand-written migrations 0001, 0007) as the query builder sees them:
 * a name and columns, so their rows are written with insert/update/delete like any table and
 * can join a D1 batch (drizzle's raw `run(sql)` cannot: its batch path needs bound statements
 * it does not make). Outside src/platform/db/schema on purpose: drizzle-kit must not generate them.
 * `rowid` is FTS5's implicit key, the `seq` of the row it indexes; MATCH stays raw SQL.
 */
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const faqsFts = sqliteTable("faqs_fts", {
  rowid: integer("rowid").notNull(),
  question: text("question").notNull(),
  answer: text("answer").notNull(),
});

export const faqVariantsFts = sqliteTable("faq_variants_fts", {
  rowid: integer("rowid").notNull(),
  body: text("body").notNull(),
});
