import { defineConfig } from "drizzle-kit";

// The optional Postgres backend of the FAQ knowledge base (README "Postgres"); D1's config is drizzle.config.ts.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/platform/db/pg/schema.ts",
  out: "./migrations/pg",
});
