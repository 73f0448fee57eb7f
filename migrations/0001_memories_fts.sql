-- Full-text index for memories (hand-written: drizzle cannot describe FTS5 tables).
-- rowid = memories.seq. The `body` column holds text prepared by src/text/fts.ts (CJK runs
-- turned into character bigrams), so `porter unicode61` can stem Latin words and still match
-- two-character Chinese words. The application writes and deletes these rows in the same D1
-- batch as the memory row.
CREATE VIRTUAL TABLE `memories_fts` USING fts5(body, tokenize = 'porter unicode61');
