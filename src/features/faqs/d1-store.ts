/**
 * The D1 adapter of the FAQ store port: the embedded default. FAQs and variants live in D1 with
 * FTS5 rows; vectors go through the VectorIndex port (Vectorize, or the exact D1 index locally).
 * Hits, relationships and suggestions are D1 tables next to them.
 */
import { rebuildFts } from "../indexing/fts-rebuild";
import type { Services } from "../../platform/ports/services";
import { expandQuery } from "../../core/text/expand";
import { exportFromD1, restoreRelationshipsD1 } from "./d1-export";
import { allFaqStats, faqStats, recordHits } from "./hits";
import { faqHitsPerDay } from "./hits-daily";
import { faqUsage } from "./usage";
import { importFaqs } from "./import";
import type { FaqStore } from "./port";
import { createRelationship, deleteRelationship, listRelated, refreshAutoRelated } from "./relationships";
import { markFaqsForReembedD1 } from "./reembed";
import { d1SearchSource } from "./d1-search";
import { searchFaqs } from "./search";
import { createFaq, getFaqRow, getFaqsByIds, listFaqs, softDeleteFaq, updateFaq } from "./store";
import { listSuggestions, recordSuggestion, resolveSuggestion } from "./suggestions";
import { FAQ_COLLECTION, FAQ_VARIANT_COLLECTION, reindexPendingFaqs } from "./indexing";
import { addVariant, countVariants, deleteVariant, listVariants, variantsOfFaqs } from "./variants";
import { listVersions, pruneFaqVersions, rollbackFaq } from "./versions";
import { wordsInUseD1 } from "./words-in-use";

export function d1FaqStore(services: Services): FaqStore {
  const { db } = services;
  return {
    backend: "d1",
    create: (tenantId, by, input) => createFaq(services, tenantId, by, input),
    get: (tenantId, id) => getFaqRow(db, tenantId, id),
    getMany: (tenantId, ids) => getFaqsByIds(db, tenantId, ids),
    nearest: (tenantId, query, topK) => services.vectors.query(tenantId, FAQ_COLLECTION, { ...query, topK }),
    variantCounts: (tenantId) => countVariants(db, tenantId),
    wordsInUse: (tenantId, words) => wordsInUseD1(db, tenantId, words),
    list: async (tenantId, { q, ...query }) => {
      const match = q === undefined ? undefined : expandQuery(q).orQuery;
      if (q !== undefined && match === null) return { rows: [], more: false };
      return listFaqs(db, tenantId, { ...query, match });
    },
    update: (tenantId, id, by, change, version) => updateFaq(services, tenantId, id, by, change, version),
    softDelete: (tenantId, id, by) => softDeleteFaq(services, tenantId, id, by),
    addVariant: (tenantId, faqId, by, input) => addVariant(services, tenantId, faqId, by, input),
    listVariants: (tenantId, faqId, page) => listVariants(db, tenantId, faqId, page),
    deleteVariant: (tenantId, variantId) => deleteVariant(services, tenantId, variantId),
    variantsOf: (tenantId, faqIds) => variantsOfFaqs(db, tenantId, faqIds),
    storedCosines: async (tenantId, query, { faqIds, variantIds }) => {
      const [faqs, variants] = await Promise.all([
        faqIds.length > 0 ? services.vectors.similarities(tenantId, FAQ_COLLECTION, query, faqIds) : new Map<string, number>(),
        variantIds.length > 0
          ? services.vectors.similarities(tenantId, FAQ_VARIANT_COLLECTION, query, variantIds)
          : new Map<string, number>(),
      ]);
      return { faqs, variants };
    },
    listVersions: (tenantId, faqId, page) => listVersions(db, tenantId, faqId, page),
    rollback: (tenantId, faqId, versionNumber, by, reason) => rollbackFaq(services, tenantId, faqId, versionNumber, by, reason),
    search: (tenantId, args) => searchFaqs(services, args, (plan) => d1SearchSource(services, tenantId, plan)),
    import: (tenantId, by, items) => importFaqs(services, tenantId, by, items),
    export: (tenantId) => exportFromD1(db, tenantId),
    reindexPending: (batchSize) => reindexPendingFaqs(services, batchSize),
    markForReembed: (tenantId, model) => markFaqsForReembedD1(services, tenantId, model),
    rebuildFullText: (tenantId, collection, after, batchSize) => rebuildFts(db, tenantId, collection, after, batchSize),
    pruneVersions: (now) => pruneFaqVersions({ db, clock: { now: () => now } }),

    recordHits: (tenantId, sessionId, query, hits) => recordHits(services, tenantId, sessionId, query, hits),
    stats: (tenantId, faqId) => faqStats(db, tenantId, faqId),
    allStats: (tenantId, limit) => allFaqStats(db, tenantId, limit),
    hitsPerDay: (tenantId, faqId, days, now) => faqHitsPerDay(db, tenantId, faqId, days, now),
    usage: (tenantId, now, days, limit) => faqUsage(db, tenantId, now, days, limit),

    listRelated: (tenantId, faqId, limit) => listRelated(db, tenantId, faqId, limit),
    createRelationship: (tenantId, sourceId, targetId, type, by) => createRelationship(services, tenantId, sourceId, targetId, type, by),
    deleteRelationship: (tenantId, id) => deleteRelationship(db, tenantId, id),
    refreshAutoRelated: (tenantId, faqId, question, by) => refreshAutoRelated(services, tenantId, faqId, question, by),
    restoreRelationships: (tenantId, ids, links) => restoreRelationshipsD1(db, tenantId, ids, links),

    recordSuggestion: (tenantId, query, results) => recordSuggestion(services, tenantId, query, results),
    listSuggestions: (tenantId, limit) => listSuggestions(db, tenantId, limit),
    resolveSuggestion: (tenantId, id, action, by, override) => resolveSuggestion(services, tenantId, id, action, by, override),
  };
}
