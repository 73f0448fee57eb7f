-- Hand-written (drizzle-kit cannot express these): pgvector, and the text search configuration
-- the generated tsvector columns of 0001 use.
CREATE EXTENSION IF NOT EXISTS vector;
--> statement-breakpoint
-- The documents are pre-tokenized by src/text/fts.ts (CJK bigrams, Latin words) exactly as for
-- FTS5; like FTS5's porter tokenizer, Latin words are stemmed (Snowball English, no stopword
-- list: the query side already dropped stopwords), everything else is kept as is ('simple').
CREATE TEXT SEARCH DICTIONARY recall_stem (TEMPLATE = snowball, Language = english);
--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION recall_fts (COPY = simple);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION recall_fts ALTER MAPPING FOR asciiword, asciihword, hword_asciipart WITH recall_stem;
