-- Full-text indexes for the FAQ knowledge base (hand-written: drizzle cannot describe FTS5 tables).
-- faqs_fts.rowid = faqs.seq, with two columns so bm25() can weigh them like Postgres's setweight
-- A/B (seed 002 §7.2.1): search ranks with bm25(faqs_fts, 10.0, 3.0) (src/faqs/search.ts).
-- faq_variants_fts.rowid = faq_variants.seq. Columns hold text prepared by src/text/fts.ts (CJK
-- runs as character bigrams). The application writes these rows in the same D1 batch as the row.
CREATE VIRTUAL TABLE `faqs_fts` USING fts5(question, answer, tokenize = 'porter unicode61');
--> statement-breakpoint
CREATE VIRTUAL TABLE `faq_variants_fts` USING fts5(body, tokenize = 'porter unicode61');
