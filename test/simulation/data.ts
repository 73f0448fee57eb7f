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
    /** vitest.simulate.config.ts: "before" (no repeat table, global calibration) or "after" (the shipped tables). */
    simulationVariant: "before" | "after";
  }
}
