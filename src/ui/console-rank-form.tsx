/**
 * The console's candidate form: one row per candidate question with its model and the model's own
 * confidence (0–1, the base of the score; the API's default 0.5 when left as is). Seed 004's
 * analyses send 8–12 candidates: six rows show, six more open below. Empty rows are skipped; the
 * API's message for a bad value appears beside its row, with what was typed.
 */
import type { FC } from "hono/jsx";
import { formField, type UiContext } from "./context";
import type { Ranking } from "./answers";
import { Back, type Place } from "./console-back";
import { Csrf, Notice, type Viewer } from "./layout";

export const CANDIDATE_ROWS = 12;
const OPEN_ROWS = 6;
export const DEFAULT_CONFIDENCE = "0.5";

type Values = Record<string, string>;
type Errors = Record<string, string>;

export interface RankFormState {
  values: Values;
  errors: Errors;
  /** Said above the rows, e.g. that a ranking had more candidates than the form holds. */
  note?: string | undefined;
}

/** The form as a stored ranking asked it, so a producer edits a row and ranks again. */
export function rankFormOf(asked: NonNullable<Ranking["asked"]>): RankFormState {
  const values: Values = { topN: String(asked.topN) };
  asked.candidates.slice(0, CANDIDATE_ROWS).forEach((candidate, k) => {
    values[`text-${k + 1}`] = candidate.text;
    values[`model-${k + 1}`] = candidate.model;
    values[`confidence-${k + 1}`] = String(candidate.confidence);
  });
  const note =
    asked.candidates.length > CANDIDATE_ROWS
      ? `This ranking had ${asked.candidates.length} candidates; the form holds the first ${CANDIDATE_ROWS}.`
      : undefined;
  return { values, errors: {}, note };
}

/** A form number: a number when it parses, else the text as typed, so the API's schema names the problem. */
export function numberOrText(text: string): number | string | undefined {
  const t = text.trim();
  if (t === "") return undefined;
  return Number.isFinite(Number(t)) ? Number(t) : t;
}

/** The rows as the API's candidates (non-empty rows only) and, for each candidate, its row number. */
export function candidatesOf(values: Values, defaultModel: string) {
  const candidates: { text: string; model: string; confidence?: number | string }[] = [];
  const rows: number[] = [];
  for (let row = 1; row <= CANDIDATE_ROWS; row++) {
    const text = (values[`text-${row}`] ?? "").trim();
    if (text === "") continue;
    const confidence = numberOrText(values[`confidence-${row}`] ?? "");
    candidates.push({
      text,
      model: (values[`model-${row}`] ?? "").trim() || defaultModel.trim(),
      ...(confidence === undefined ? {} : { confidence }),
    });
    rows.push(row);
  }
  return { candidates, rows };
}

export async function readRankForm(c: UiContext): Promise<Values> {
  const values: Values = { model: await formField(c, "model"), topN: await formField(c, "topN") };
  for (let row = 1; row <= CANDIDATE_ROWS; row++) {
    for (const name of ["text", "model", "confidence"]) values[`${name}-${row}`] = await formField(c, `${name}-${row}`);
  }
  return values;
}

/** API issue paths → form fields: "candidates.2.confidence" → the third sent row's own message. */
export function rankErrors(details: { path: string; message: string }[], rows: number[]): Errors {
  const errors: Errors = {};
  for (const d of details) {
    const m = /^candidates\.(\d+)\.(text|model|confidence)$/.exec(d.path);
    const row = m ? rows[Number(m[1])] : undefined;
    if (m && row !== undefined) errors[`row-${row}`] ??= `Question ${row}${m[2] === "text" ? "" : `, ${m[2]}`}: ${d.message}`;
    else if (d.path === "candidates") errors.form ??= rows.length === 0 ? "Type at least one question." : `Candidates: ${d.message}`;
    else errors[d.path === "(root)" ? "form" : d.path] ??= d.message;
  }
  return errors;
}

const CandidateRow: FC<{ row: number; state: RankFormState }> = ({ row, state }) => {
  const v = (name: string) => state.values[`${name}-${row}`];
  const error = state.errors[`row-${row}`];
  const described = error ? `row-${row}-error` : undefined;
  return (
    <div class="cand-row">
      <div class="cand-q">
        <label for={`text-${row}`}>Question {row}</label>
        <input
          type="text"
          id={`text-${row}`}
          name={`text-${row}`}
          value={v("text") ?? ""}
          aria-invalid={error ? "true" : undefined}
          aria-describedby={described}
        />
      </div>
      <div class="cand-m">
        <label for={`model-${row}`}>
          Model<span class="vh"> of question {row}</span>
        </label>
        <input type="text" id={`model-${row}`} name={`model-${row}`} value={v("model") ?? ""} placeholder="default" />
      </div>
      <div class="cand-c">
        <label for={`confidence-${row}`}>
          Confidence<span class="vh"> of question {row}</span>
        </label>
        <input
          type="number"
          id={`confidence-${row}`}
          name={`confidence-${row}`}
          value={v("confidence") ?? DEFAULT_CONFIDENCE}
          step="0.05"
          min="0"
          max="1"
        />
      </div>
      {error && (
        <p class="field-error cand-error" id={`row-${row}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
};

export const RankForm: FC<{ place: Place; viewer: Viewer; state: RankFormState; ended: boolean }> = ({ place, viewer, state, ended }) => {
  const rows = Array.from({ length: CANDIDATE_ROWS }, (_, i) => i + 1);
  // The extra rows stay open when one of them holds text or an error.
  const extraUsed = rows.slice(OPEN_ROWS).some((r) => (state.values[`text-${r}`] ?? "").trim() !== "" || state.errors[`row-${r}`]);
  return (
    <section class="card" aria-labelledby="rank-title">
      <h2 id="rank-title">Rank candidate questions</h2>
      {state.errors.form && <Notice kind="error">{state.errors.form}</Notice>}
      {state.note && <p class="muted small">{state.note}</p>}
      {ended && <p class="muted">The show has ended: nothing more is ranked into its memory.</p>}
      <form method="post" action={`/ui/shows/${place.showId}/rank`}>
        <Csrf viewer={viewer} />
        <Back place={place} />
        <p class="muted small" id="rank-hint">
          One candidate a row; empty rows are skipped. Confidence is the generating model's own (0–1), the base of the score. An empty model
          takes the default model.
        </p>
        {rows.slice(0, OPEN_ROWS).map((row) => (
          <CandidateRow row={row} state={state} />
        ))}
        <details open={extraUsed}>
          <summary>{CANDIDATE_ROWS - OPEN_ROWS} more rows</summary>
          {rows.slice(OPEN_ROWS).map((row) => (
            <CandidateRow row={row} state={state} />
          ))}
        </details>
        <div class="grid">
          <div class="field">
            <label for="model">Default model</label>
            <input type="text" id="model" name="model" value={state.values.model ?? "gpt-4o"} />
          </div>
          <div class="field">
            <label for="topN">Top N</label>
            <input
              type="number"
              id="topN"
              name="topN"
              value={state.values.topN ?? "5"}
              min="1"
              max="50"
              aria-invalid={state.errors.topN ? "true" : undefined}
              aria-describedby={state.errors.topN ? "topN-error" : undefined}
            />
            {state.errors.topN && (
              <p class="field-error" id="topN-error" role="alert">
                {state.errors.topN}
              </p>
            )}
          </div>
        </div>
        <p>
          <button type="submit" disabled={ended}>
            Rank
          </button>
        </p>
      </form>
    </section>
  );
};
