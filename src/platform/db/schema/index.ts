/**
 * The D1 schema, one file per aggregate. drizzle-kit generates the migrations from this folder;
 * the FTS5 tables and their tokenizer live in hand-written migrations because drizzle cannot
 * describe virtual tables. Every tenant-owned row carries `tenant_id`, and every query filters on it.
 */
export * from "./core";
export * from "./faqs";
export * from "./faq-row-versions";
export * from "./memories";
export * from "./shows";
export * from "./tickets";
export * from "./vectors";
export * from "./helpdesk";
export * from "./idempotency";
export * from "./calibration";
export * from "./deployment-keys";
