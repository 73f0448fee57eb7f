import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}

/** Vite's raw imports: a data file's text (the labelled card set). */
declare module "*?raw" {
  const text: string;
  export default text;
}
