/** Which adapter of the FAQ store port serves these services (FAQ_STORE, src/app/services.ts). */
import type { Services } from "../../platform/ports/services";
import { d1FaqStore } from "./d1-store";
import type { FaqStore } from "./port";
import { postgresFaqStore } from "./postgres/store";
import { guardUnavailable } from "./postgres/unavailable";

export function faqStore(services: Services): FaqStore {
  const pg = services.faqPostgres;
  return pg ? guardUnavailable(postgresFaqStore(services, pg.open()), { track: (work) => pg.track(work) }) : d1FaqStore(services);
}
