/**
 * What an FAQ change does, the same on every store: the row it becomes, whether its content
 * changed (a version is written and the version number moves) and whether its question changed
 * (it is embedded again: `pending`, or `lexical_only` for text the model cannot embed). A change
 * that alters nothing is no change: null.
 */
import type { FaqChange, FaqRow } from "./types";

export interface FaqUpdate {
  next: FaqRow;
  contentChanged: boolean;
  questionChanged: boolean;
}

export function applyFaqChange(
  current: FaqRow,
  change: FaqChange,
  { by, now, canEmbed }: { by: string; now: number; canEmbed: (text: string) => boolean },
): FaqUpdate | null {
  const next: FaqRow = {
    ...current,
    question: change.question ?? current.question,
    answer: change.answer ?? current.answer,
    tags: change.tags ? JSON.stringify(change.tags) : current.tags,
    metadata: change.metadata ? JSON.stringify(change.metadata) : current.metadata,
  };
  const questionChanged = next.question !== current.question;
  const contentChanged = questionChanged || next.answer !== current.answer || next.tags !== current.tags;
  if (!contentChanged && next.metadata === current.metadata) return null;
  next.updated_at = now;
  next.updated_by = by;
  if (questionChanged) next.index_state = canEmbed(next.question) ? "pending" : "lexical_only";
  return { next, contentChanged, questionChanged };
}
