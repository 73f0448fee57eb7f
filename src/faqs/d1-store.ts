/**
 * The D1 adapter of the FAQ store port: the embedded default. FAQs and variants live in D1 with
 * FTS5 rows; vectors go through the VectorIndex port (Vectorize, or the exact D1 index locally).
 */
import type { Services } from "../services";
import { expandQuery } from "../text/expand";
import { exportFromD1 } from "./d1-export";
import { importFaqs } from "./import";
import type { FaqStore } from "./port";
import { searchFaqs } from "./search";
import { createFaq, getFaqRow, listFaqs, softDeleteFaq, updateFaq } from "./store";
import { addVariant, deleteVariant, listVariants } from "./variants";
import { listVersions, rollbackFaq } from "./versions";

export function d1FaqStore(services: Services): FaqStore {
  const { db } = services;
  return {
    backend: "d1",
    create: (tenantId, by, input) => createFaq(services, tenantId, by, input),
    get: (tenantId, id) => getFaqRow(db, tenantId, id),
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
    listVersions: (tenantId, faqId, page) => listVersions(db, tenantId, faqId, page),
    rollback: (tenantId, faqId, versionNumber, by, reason) => rollbackFaq(services, tenantId, faqId, versionNumber, by, reason),
    search: (tenantId, args) => searchFaqs(services, tenantId, args),
    import: (tenantId, by, items) => importFaqs(services, tenantId, by, items),
    export: (tenantId) => exportFromD1(db, tenantId),
  };
}
