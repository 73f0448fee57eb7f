/**
 * Which adapter of the pipeline store serves these services: the FAQ store's backend (FAQ_STORE),
 * so a ticket's decision, its staging item and the FAQ they change live in the same database.
 */
import type { Services } from "../../platform/ports/services";
import { d1PipelineStore } from "./d1-store";
import type { PipelineStore } from "./port";
import { guardPipelineStore } from "./postgres/guard";
import { postgresPipelineStore } from "./postgres/store";

export function pipelineStore(services: Pick<Services, "db" | "faqPostgres">): PipelineStore {
  const pg = services.faqPostgres;
  return pg ? guardPipelineStore(postgresPipelineStore(pg.open().db), { track: (work) => pg.track(work) }) : d1PipelineStore(services.db);
}

/**
 * Where webhooks are authenticated from: webhook secrets, helpdesk connections, delivery records
 * and gathered threads (src/features/tickets/secrets.ts, src/features/helpdesk/). The home D1 database: a helpdesk's
 * delivery names its connection, not its tenant, so these are found before the tenant's database is known
 * (docs/design/tenant-placement.md). D1 on every FAQ_STORE, on purpose:
 * a signature is checked before anything is stored, so a webhook must be verifiable while Postgres
 * is down (its ticket then rides in the queue message: intake.ts). One place to change if that
 * choice ever changes.
 */
export function webhookAuthDb(services: Pick<Services, "home">): D1Database {
  return services.home;
}
