/** Labelled questions for the show simulation, read at run time from ../shared/data (never committed). */
export interface ShowSimulationData {
  /** stackfaq dev paraphrases: one FAQ thread = one question idea, 10 wordings each. */
  threads: { id: string; paraphrases: string[] }[];
  /** Questions from other domains (MQP medical questions, SemEval Qatar Living subjects), each its own idea. */
  newTopics: string[];
}

declare module "vitest" {
  export interface ProvidedContext {
    showSimulationData: ShowSimulationData | null;
    /** vitest.simulate.config.ts: "before" (no repeat table), "shipped" or "held-out" (fitted without the simulated threads). */
    simulationVariant: "before" | "shipped" | "held-out";
  }
}
