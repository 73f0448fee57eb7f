/**
 * Where a console action returns to: the page it was posted from, the show's console or one of its
 * rankings (with the history period). Each form carries it in hidden fields, and every action
 * answers with a redirect there, so the ranked cards stay on screen and reload or back never post
 * again. The URL is rebuilt from validated parts: a form cannot send the browser anywhere else.
 */
import type { FC } from "hono/jsx";
import { formField, type UiContext } from "./context";

export const HISTORY_CHOICES = [30, 60, 180, 1440] as const;
export const DEFAULT_MINUTES = 30;
const RANKING_ID = /^[A-Za-z0-9_-]{1,100}$/;

export interface Place {
  showId: string;
  rankingId: string | null;
  minutes: number;
}

export function historyMinutes(value: string | undefined): number {
  const m = Number(value ?? DEFAULT_MINUTES);
  return (HISTORY_CHOICES as readonly number[]).includes(m) ? m : DEFAULT_MINUTES;
}

export function rankingIdOf(value: string | undefined): string | null {
  return value !== undefined && RANKING_ID.test(value) ? value : null;
}

/** The page's path: the console, or a ranking's results. */
export function placePath(place: Place): string {
  const base = `/ui/shows/${place.showId}`;
  return place.rankingId === null ? base : `${base}/rankings/${place.rankingId}`;
}

/**
 * The page's URL with its history period. A ranking's lands on its cards (#results) after a rank
 * or a card's own action; after the others (refresh, pause, configuration) it opens at the top,
 * where their notice is.
 */
export function placeUrl(place: Place, toResults = true): string {
  const query = place.minutes === DEFAULT_MINUTES ? "" : `?minutes=${place.minutes}`;
  return `${placePath(place)}${query}${place.rankingId !== null && toResults ? "#results" : ""}`;
}

export const Back: FC<{ place: Place }> = ({ place }) => (
  <>
    {place.rankingId !== null && <input type="hidden" name="ranking" value={place.rankingId} />}
    {place.minutes !== DEFAULT_MINUTES && <input type="hidden" name="minutes" value={String(place.minutes)} />}
  </>
);

/** The place a posted form came from. */
export async function placeOfForm(c: UiContext, showId: string): Promise<Place> {
  return {
    showId,
    rankingId: rankingIdOf(await formField(c, "ranking")),
    minutes: historyMinutes((await formField(c, "minutes")) || undefined),
  };
}
