/**
 * The answers the screens render, as the routes declare them (through the typed client of
 * src/ui/api.ts): a route that changes its answer changes these, and the view that reads a field it
 * no longer has fails to compile.
 */
import type { InferResponseType } from "hono/client";
import type { ApiClient } from "./api";

type Show = ApiClient["shows"][":showId"];
type Faqs = ApiClient["faqs"];
type Staging = ApiClient["staging"][":id"];

export type ShowSummary = InferResponseType<ApiClient["shows"]["$get"], 200>["shows"][number];
export type ShowStatus = InferResponseType<Show["status"]["$get"], 200>;
export type HistoryItem = InferResponseType<Show["history"]["$get"], 200>["questions"][number];
export type RankingSummary = InferResponseType<Show["rankings"]["$get"], 200>["rankings"][number];
export type Ranking = InferResponseType<Show["rankings"][":rankingId"]["$get"], 200>;
export type Check = InferResponseType<Show["check"]["$post"], 200>;

export type Faq = InferResponseType<Faqs["$get"], 200>["faqs"][number];
export type FaqDetail = InferResponseType<Faqs[":id"]["$get"], 200>;
export type FaqVersion = InferResponseType<Faqs[":id"]["versions"]["$get"], 200>["versions"][number];
export type FaqSearchResult = InferResponseType<Faqs["search"]["$post"], 200>["results"][number];
export type Suggestion = InferResponseType<Faqs["suggestions"]["$get"], 200>["suggestions"][number];

export type StagingItem = InferResponseType<Staging["$get"], 200>;
export type Decision = InferResponseType<Staging["decision"]["$get"], 200>;
export type Ticket = InferResponseType<ApiClient["tickets"][":id"]["$get"], 200>;
export type PipelineStats = InferResponseType<ApiClient["pipeline"]["stats"]["$get"], 200>;
