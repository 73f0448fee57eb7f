/**
 * The console's "Check a question": would the show let this question through now? It asks
 * `POST /v1/shows/:showId/check`, which records nothing, so the form is a GET (`?check=`): a
 * reload asks again, and the answer stays beside the form.
 */
import type { FC } from "hono/jsx";
import { DEFAULT_MINUTES, type Place, placePath } from "./console-back";
import type { Check } from "./answers";
import { api, apiResult } from "./api";
import type { UiContext } from "./context";
import { Field, minutesAgoText, percent } from "./layout";

export interface CheckState {
  text: string;
  result: Check | null;
  error: string | null;
}

/** The check the page's `?check=` asks for, or null when it asks none. */
export async function checkOf(c: UiContext, place: Place, text: string | undefined): Promise<CheckState | null> {
  if (text === undefined || text.trim() === "") return null;
  const result = await apiResult(api(c).shows[":showId"].check.$post({ param: { showId: place.showId }, json: { text } }));
  if (result.ok) return { text, result: result.data, error: null };
  return { text, result: null, error: result.details[0]?.message ?? result.message };
}

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const Verdict: FC<{ result: Check }> = ({ result }) => {
  const closest =
    result.mostSimilarQuestion === null
      ? ""
      : `${percent(result.similarity)} similar to “${result.mostSimilarQuestion}”${
          result.minutesAgo === null ? "" : `, asked ${minutesAgoText(result.minutesAgo)}`
        }`;
  return result.isSimilar ? (
    <p class="warning" data-testid="check-result">
      ⚠ Would be filtered: {closest}.{result.evidence ? ` ${sentence(result.evidence)}` : ""}
    </p>
  ) : (
    <p class="done-line" data-testid="check-result">
      ✓ Would go through: novelty {percent(result.novelty)}
      {closest ? ` (closest: ${closest})` : " (nothing like it in memory)"}.
    </p>
  );
};

export const CheckForm: FC<{ place: Place; check: CheckState | null }> = ({ place, check }) => (
  <form id="check" method="get" action={`${placePath(place)}#check`}>
    {place.minutes !== DEFAULT_MINUTES && <input type="hidden" name="minutes" value={String(place.minutes)} />}
    <Field
      id="check-text"
      name="check"
      label="Check a question"
      hint="Would the show let it through now? Nothing is recorded."
      value={check?.text}
      error={check?.error ?? undefined}
    />
    <p>
      <button type="submit" class="secondary">
        Check
      </button>
    </p>
    {check?.result && <Verdict result={check.result} />}
  </form>
);
