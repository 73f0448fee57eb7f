/**
 * The producer console's routes (seed 004 §UI): pick or create a show, rank candidates (the
 * result lives at its own URL, /ui/shows/:showId/rankings/:rankingId), mark questions used, use a
 * filtered one anyway, refresh a topic, pause the memory, tune the configuration, end the show.
 * All through /v1/shows/… as the signed-in user. Every action answers with a redirect to the page
 * it came from (with a one-time notice), so reload and back never post again.
 */
import type { Hono } from "hono";
import { historyMinutes, type Place, placeOfForm, placeUrl, rankingIdOf } from "./console-back";
import { ShowList, Live, liveData, renderConsole, renderEndConfirm } from "./console-page";
import { candidatesOf, numberOrText, rankErrors, readRankForm } from "./console-rank-form";
import { CONFIG_FIELDS } from "./console-views";
import { api, apiData, apiResult, formBody } from "./api";
import { done, formField, screen, type UiContext, type UiEnv, UiFailure, viewerOf } from "./context";
import { type Flash, setFlash, takeFlash } from "./flash";
import { shortened } from "./layout";

const SHOW_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A refresh notice names this many of the questions it took out. */
const SHOWN_REFRESHED = 5;

type Errors = Record<string, string>;

/** The page a GET asks for: the show, maybe a ranking, the history period. */
function placeOfQuery(c: UiContext, rankingId: string | null = null): Place {
  return { showId: c.req.param("showId")!, rankingId, minutes: historyMinutes(c.req.query("minutes")) };
}

/** After an action: a notice for the next page, then back where the form was (at the cards, for a card's action). */
function back(c: UiContext, place: Place, notice?: Flash, toResults = notice?.atResults === true) {
  if (notice) setFlash(c, notice);
  return c.redirect(placeUrl(place, toResults), 303);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function consoleRoutes(ui: Hono<UiEnv>) {
  ui.get("/shows", screen, async (c) => {
    const { shows } = await apiData(api(c).shows.$get({ query: {} }));
    return c.html(<ShowList shows={shows} viewer={viewerOf(c)} />);
  });

  ui.post("/shows", screen, async (c) => {
    const showId = (await formField(c, "showId")).trim();
    if (SHOW_ID.test(showId)) return c.redirect(`/ui/shows/${showId}`, 303);
    // The API's own check names the problem (same schema as every /v1/shows/:showId route).
    const probe = await apiResult(api(c).shows[":showId"].status.$get({ param: { showId: encodeURIComponent(showId || " ") } }));
    const message = probe.ok ? "Not a valid show id" : (probe.details[0]?.message ?? probe.message);
    const { shows } = await apiData(api(c).shows.$get({ query: {} }));
    return c.html(<ShowList shows={shows} viewer={viewerOf(c)} error={message} value={showId} />, 400);
  });

  // Everything under one show validates its id first (a bad one is a 404 page, never a 500).
  const checkShowId = (c: UiContext) => {
    if (!SHOW_ID.test(c.req.param("showId") ?? "")) throw new UiFailure(404, "No such show: a show id is 1–64 letters, digits, _ or -");
  };
  ui.use("/shows/:showId/*", async (c, next) => {
    checkShowId(c);
    await next();
  });

  ui.get("/shows/:showId", screen, async (c) => {
    checkShowId(c);
    return renderConsole(c, placeOfQuery(c), { notice: takeFlash(c), check: c.req.query("check") });
  });

  // A ranking's cards at their own URL: a reload shows them again, it does not rank again.
  ui.get("/shows/:showId/rankings/:rankingId", screen, async (c) => {
    const rankingId = rankingIdOf(c.req.param("rankingId"));
    if (rankingId === null) throw new UiFailure(404, "No such ranking in this show");
    return renderConsole(c, placeOfQuery(c, rankingId), { notice: takeFlash(c), check: c.req.query("check") });
  });

  ui.get("/shows/:showId/live", screen, async (c) => {
    const place = placeOfQuery(c, rankingIdOf(c.req.query("ranking")));
    const live = await liveData(c, place);
    return c.html(<Live place={place} live={live} viewer={viewerOf(c)} now={c.get("services").clock.now()} />);
  });

  ui.post("/shows/:showId/rank", screen, async (c) => {
    const showId = c.req.param("showId");
    const place = await placeOfForm(c, showId);
    const values = await readRankForm(c);
    const { candidates, rows } = candidatesOf(values, values.model ?? "");
    const topN = numberOrText(values.topN ?? "");
    const result = await apiResult(
      api(c).shows[":showId"].rank.$post({ param: { showId }, json: formBody({ candidates, ...(topN === undefined ? {} : { topN }) }) }),
    );
    if (result.ok && result.data.rankingId !== null) return back(c, { ...place, rankingId: result.data.rankingId }, undefined, true);
    if (result.ok) return back(c, place, { kind: "error", text: "Ranked, but the show kept no ranking to show." });
    const errors = result.details.length > 0 ? rankErrors(result.details, rows) : { form: result.message };
    return renderConsole(c, place, { rank: { values, errors } }, result.status);
  });

  ui.post("/shows/:showId/questions", screen, async (c) => {
    const showId = c.req.param("showId");
    const place = await placeOfForm(c, showId);
    const text = await formField(c, "text");
    const result = await apiResult(api(c).shows[":showId"].questions.$post({ param: { showId }, json: { questions: [{ text }] } }));
    if (result.ok) return back(c, place);
    const error = result.details[0]?.message ?? result.message;
    return renderConsole(c, place, { add: { values: { text }, errors: { text: error } } }, result.status);
  });

  ui.post("/shows/:showId/questions/:id/used", screen, async (c) => {
    const { showId, id } = c.req.param();
    const place = await placeOfForm(c, showId);
    const result = await apiResult(api(c).shows[":showId"].questions[":id"].used.$post({ param: { showId, id: encodeURIComponent(id) } }));
    if (result.ok) return done(c, placeUrl(place));
    return c.text(result.message, result.status);
  });

  // "Use anyway" on a filtered question (seed 004's manual override, for one question).
  ui.post("/shows/:showId/overrides", screen, async (c) => {
    const showId = c.req.param("showId");
    const place = await placeOfForm(c, showId);
    const text = await formField(c, "text");
    const model = (await formField(c, "model")).trim();
    const body = {
      text,
      againstQuestionId: await formField(c, "againstQuestionId"),
      ...(model === "" ? {} : { model }),
      ...(place.rankingId === null ? {} : { rankingId: place.rankingId }),
    };
    const result = await apiResult(api(c).shows[":showId"].overrides.$post({ param: { showId }, json: body }));
    if (!result.ok)
      return back(c, place, { kind: "error", text: `“${shortened(text, 80)}” was not used: ${result.message}`, atResults: true });
    return back(c, place, {
      kind: "ok",
      atResults: true,
      text: `“${shortened(text, 80)}” used anyway by ${result.data.override.by}: it is in memory, marked used, and kept as a calibration label (related).`,
    });
  });

  ui.post("/shows/:showId/refresh", screen, async (c) => {
    const showId = c.req.param("showId");
    const place = await placeOfForm(c, showId);
    const topic = await formField(c, "topic");
    const result = await apiResult(api(c).shows[":showId"].refresh.$post({ param: { showId }, json: { topic } }));
    if (result.ok) {
      const { count, questions } = result.data;
      // The notice names what went (a few of them), so the producer sees the topic was read as meant.
      const named = questions.slice(0, SHOWN_REFRESHED).map((q) => `“${shortened(q.text, 70)}”`);
      const which = named.join(", ") + (count > named.length ? ` and ${count - named.length} more` : "");
      const text = `${plural(count, "question")} about “${topic.trim()}” taken out of memory${count > 0 ? `: ${which}` : ""}.`;
      return back(c, place, { kind: "ok", text });
    }
    const error = result.details[0]?.message ?? result.message;
    return renderConsole(c, place, { refresh: { values: { topic }, errors: { topic: error } } }, result.status);
  });

  for (const [action, enabled] of [
    ["pause", false],
    ["resume", true],
  ] as const) {
    ui.post(`/shows/:showId/${action}`, screen, async (c) => {
      const showId = c.req.param("showId");
      const place = await placeOfForm(c, showId);
      const result = await apiResult(api(c).shows[":showId"].config.$put({ param: { showId }, json: { enabled } }));
      if (!result.ok) return back(c, place, { kind: "error", text: result.message });
      return back(c, place);
    });
  }

  ui.post("/shows/:showId/config", screen, async (c) => {
    const showId = c.req.param("showId");
    const place = await placeOfForm(c, showId);
    const values: Record<string, string> = {};
    const body: Partial<Record<(typeof CONFIG_FIELDS)[number]["key"], number | string>> = {};
    for (const f of CONFIG_FIELDS) {
      values[f.key] = await formField(c, f.key);
      const v = numberOrText(values[f.key]!);
      if (v !== undefined) body[f.key] = v;
    }
    const result = await apiResult(api(c).shows[":showId"].config.$put({ param: { showId }, json: formBody(body) }));
    if (result.ok) return back(c, place, { kind: "ok", text: "Configuration saved." });
    const errors: Errors = {};
    for (const d of result.details) errors[d.path === "(root)" ? "form" : d.path] ??= d.message;
    if (Object.keys(errors).length === 0) errors.form = result.message;
    return renderConsole(c, place, { config: { values, errors } }, result.status);
  });

  ui.get("/shows/:showId/end", screen, async (c) => renderEndConfirm(c, placeOfQuery(c, rankingIdOf(c.req.query("ranking")))));

  ui.post("/shows/:showId/end", screen, async (c) => {
    const showId = c.req.param("showId");
    const place: Place = { showId, rankingId: null, minutes: historyMinutes(undefined) };
    const result = await apiResult(api(c).shows[":showId"].end.$post({ param: { showId } }));
    if (!result.ok) {
      const text = result.status === 404 ? "Nothing was ever recorded in this show, so there is nothing to end." : result.message;
      return back(c, place, { kind: "error", text });
    }
    return back(c, place, { kind: "ok", text: "The show has ended: its memory is cleared and nothing more is recorded." });
  });
}
