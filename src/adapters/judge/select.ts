/**
 * Which judge runs (JUDGE): `auto` (the default, also when unset) is the Workers AI judge wherever
 * an AI binding exists — production — and the heuristic where none does (local, tests);
 * `heuristic` and `workers-ai` force one. Seed 002 means the 0.70–0.85 band and "does the answer
 * add information" for an LLM; the heuristic is its fallback, not its replacement.
 */
import { heuristicJudge } from "../../platform/judge/heuristic";
import type { Judge } from "../../platform/judge/port";
import { type TextGenerator, workersAiJudge } from "./workers-ai";

export function selectJudge(setting: string | undefined, ai: TextGenerator | undefined): Judge {
  switch (setting || "auto") {
    case "auto":
      return ai ? workersAiJudge(ai) : heuristicJudge;
    case "heuristic":
      return heuristicJudge;
    case "workers-ai":
      if (!ai) throw new Error("JUDGE=workers-ai needs the AI binding");
      return workersAiJudge(ai);
    default:
      throw new Error(`unknown JUDGE "${setting}" (auto | heuristic | workers-ai)`);
  }
}
