/**
 * Which adapter of the pipeline store serves these services: the FAQ store's backend (FAQ_STORE),
 * so a ticket's decision, its staging item and the FAQ they change live in the same database.
 */
import type { Services } from "../services";
import { d1PipelineStore } from "./d1-store";
import type { PipelineStore } from "./port";
import { guardPipelineStore } from "./postgres/guard";
import { postgresPipelineStore } from "./postgres/store";

export function pipelineStore(services: Pick<Services, "db" | "faqPostgres">): PipelineStore {
  const pg = services.faqPostgres;
  return pg ? guardPipelineStore(postgresPipelineStore(pg.open().db), { track: (work) => pg.track(work) }) : d1PipelineStore(services.db);
}
