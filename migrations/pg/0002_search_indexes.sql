-- Hand-written: HNSW indexes on an expression and a trigger (drizzle-kit expresses neither).
-- The vector columns have no fixed dimension (the model decides it), so each supported model
-- gets a partial HNSW index on a cast to its dimension; search filters by embedding_model and
-- orders by the same cast expression (src/faqs/postgres/search.ts), which is what lets the
-- planner use the index. A new model needs a new pair of indexes here.
CREATE INDEX faqs_embedding_use_lite_512_idx ON faqs USING hnsw ((embedding::vector(512)) vector_cosine_ops) WHERE embedding_model = 'use-lite-512';
--> statement-breakpoint
CREATE INDEX faq_variants_embedding_use_lite_512_idx ON faq_variants USING hnsw ((embedding::vector(512)) vector_cosine_ops) WHERE embedding_model = 'use-lite-512';
--> statement-breakpoint
CREATE INDEX faqs_embedding_bge_m3_idx ON faqs USING hnsw ((embedding::vector(1024)) vector_cosine_ops) WHERE embedding_model = '@cf/baai/bge-m3';
--> statement-breakpoint
CREATE INDEX faq_variants_embedding_bge_m3_idx ON faq_variants USING hnsw ((embedding::vector(1024)) vector_cosine_ops) WHERE embedding_model = '@cf/baai/bge-m3';
--> statement-breakpoint
-- A vector describes the question it was computed from: when the question changes and the same
-- statement does not bring the new vector, the old one is dropped and the row is pending again.
CREATE FUNCTION faqs_drop_stale_embedding() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.question IS DISTINCT FROM OLD.question AND NEW.embedding IS NOT DISTINCT FROM OLD.embedding AND OLD.embedding IS NOT NULL THEN
    NEW.embedding := NULL;
    NEW.embedding_model := NULL;
    IF NEW.index_state = 'indexed' THEN NEW.index_state := 'pending'; END IF;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER faqs_drop_stale_embedding BEFORE UPDATE OF question ON faqs FOR EACH ROW EXECUTE FUNCTION faqs_drop_stale_embedding();
