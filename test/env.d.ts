import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      /** 3 requests per 60 s per key (test/support/workers-pool.ts). */
      TIGHT_RATE_LIMIT: RateLimit;
      /** A model host that accepts connections and never answers (test/support/global-setup.ts). */
      HANGING_EMBEDDER_URL: string;
    }
  }
}

/** Vite's raw imports: a data file's text (the labelled card set). */
declare module "*?raw" {
  const text: string;
  export default text;
}
