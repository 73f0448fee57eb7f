/**
 * The producer console over the real app (issue 35): a ranking at its own URL, actions that come
 * back to it, "use anyway", a confidence per candidate, ending the show.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { newTenant } from "../support/api";
import { uiSession } from "../support/ui";

const BASE = "https://recall.test";
const ASKED = "What evidence supports machine consciousness?";
const REWORDED = "What is the evidence that supports consciousness in machines?";
const OTHER = "Will quantum computers break encryption soon?";

async function get(path: string, cookie: string) {
  const response = await SELF.fetch(`${BASE}${path}`, { headers: { cookie }, redirect: "manual" });
  return { status: response.status, html: await response.text() };
}

async function post(path: string, cookie: string, form: Record<string, string>) {
  const response = await SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded", origin: BASE },
    body: new URLSearchParams(form),
    redirect: "manual",
  });
  const flash = response.headers.getSetCookie().find((c) => c.startsWith("recall_flash="));
  return { status: response.status, location: response.headers.get("location"), flash: flash?.split(";")[0], html: await response.text() };
}

const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1]!;

async function v1(key: string, method: string, path: string, body?: unknown) {
  const response = await SELF.fetch(`${BASE}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return response.json<Record<string, unknown>>();
}

/** A signed-in console on a show that asked ASKED, then ranked REWORDED (filtered) and OTHER from the form. */
async function rankedConsole(showId: string) {
  const { adminKey, tenantId } = await newTenant();
  await v1(adminKey, "POST", `/v1/shows/${showId}/questions`, { questions: [{ text: ASKED, model: "gpt-4o" }] });
  const cookie = await uiSession(adminKey);
  const csrf = csrfOf((await get(`/ui/shows/${showId}`, cookie)).html);
  const ranked = await post(`/ui/shows/${showId}/rank`, cookie, {
    _csrf: csrf,
    "text-1": REWORDED,
    "model-1": "claude",
    "confidence-1": "0.9",
    "text-2": "",
    "text-3": OTHER,
    "model-3": "",
    "confidence-3": "0.35",
    model: "gemini",
    topN: "4",
  });
  return { adminKey, tenantId, cookie, csrf, ranked };
}

describe("POST /ui/shows/:showId/rank", () => {
  it("redirects to the ranking's own URL, which shows the same cards on every reload without ranking again", async () => {
    const { adminKey, cookie, ranked } = await rankedConsole("ui-rank");
    expect(ranked.status).toBe(303);
    expect(ranked.location).toMatch(/^\/ui\/shows\/ui-rank\/rankings\/rk_[A-Za-z0-9_-]+#results$/);
    const url = ranked.location!.replace("#results", "");
    for (let reload = 0; reload < 2; reload++) {
      const { status, html } = await get(url, cookie);
      expect(status).toBe(200);
      expect(html).toContain('data-testid="filtered"');
      expect(html).toContain(REWORDED);
      expect(html).toContain("Use anyway");
      // Each row's own confidence reached the API (the pick's card says it); the empty model took the default.
      expect(html).toMatch(/gemini<\/span>.*confidence 35%/s);
      // "asked at" with the clock time of the question it was filtered against.
      expect(html).toMatch(/asked at <time datetime="[^"]+" data-local-time="">\d\d:\d\d UTC<\/time>/);
      // Not ranked again: the pick is a pick, not filtered as "asked just now" (by itself).
      expect(html.match(/data-testid="filtered"/g)).toHaveLength(1);
      expect(html).toMatch(/data-testid="pick">(?:(?!<\/article>).)*Will quantum computers/s);
      // The form holds the request as sent (the empty row skipped, the empty model as the default it took), to edit and rank again.
      expect(html).toContain(`id="text-1" name="text-1" value="${REWORDED}"`);
      expect(html).toMatch(/id="model-2" name="model-2" value="gemini"/);
      expect(html).toMatch(/id="confidence-2" name="confidence-2" value="0.35"/);
      expect(html).toMatch(/id="topN" name="topN" value="4"/);
    }
    const { rankings } = await v1(adminKey, "GET", "/v1/shows/ui-rank/rankings");
    expect(rankings).toHaveLength(1);
  });

  it("keeps what was typed and puts the API's message beside the row it is about", async () => {
    const { adminKey } = await newTenant();
    const cookie = await uiSession(adminKey);
    const csrf = csrfOf((await get("/ui/shows/ui-rank-bad", cookie)).html);
    const res = await post("/ui/shows/ui-rank-bad/rank", cookie, {
      _csrf: csrf,
      "text-1": "Fine question?",
      "text-4": "Too sure?",
      "confidence-4": "1.5",
      model: "m",
    });
    expect(res.status).toBe(400);
    expect(res.html).toContain('id="row-4-error"');
    expect(res.html).toContain("Question 4, confidence:");
    expect(res.html).toMatch(/id="confidence-4" name="confidence-4" value="1.5"/);
  });
});

describe("console actions on a ranking's page", () => {
  it("mark used, pause, resume and refresh come back to the ranking's URL, with a one-time notice", async () => {
    const { adminKey, cookie, csrf, ranked } = await rankedConsole("ui-back");
    const rankingId = /rankings\/([^#]+)/.exec(ranked.location!)![1]!;
    const ranking = await v1(adminKey, "GET", `/v1/shows/ui-back/rankings/${rankingId}`);
    const pickId = (ranking.picks as { id: string }[])[0]!.id;
    const back = `/ui/shows/ui-back/rankings/${rankingId}`;
    const form = { _csrf: csrf, ranking: rankingId };
    // A card's action lands on the cards; the others at the top of the same page, where their notice is.
    expect((await post(`/ui/shows/ui-back/questions/${pickId}/used`, cookie, form)).location).toBe(`${back}#results`);
    expect((await post("/ui/shows/ui-back/pause", cookie, form)).location).toBe(back);
    expect((await post("/ui/shows/ui-back/resume", cookie, { ...form, minutes: "60" })).location).toBe(`${back}?minutes=60`);
    const refreshed = await post("/ui/shows/ui-back/refresh", cookie, { ...form, topic: "quantum" });
    expect(refreshed.location).toBe(back);
    const page = await get(back, `${cookie}; ${refreshed.flash}`);
    expect(page.html).toContain("1 question about “quantum” taken out of memory: “Will quantum computers break encryption soon?”");
    // The used pick shows it once, as text.
    expect(page.html.match(/✓ Marked used/g)).toHaveLength(1);
    // A "ranking" field that is not a ranking id cannot send the browser elsewhere.
    expect((await post("/ui/shows/ui-back/pause", cookie, { _csrf: csrf, ranking: "https://evil.example/" })).location).toBe(
      "/ui/shows/ui-back",
    );
  });

  it("“Use anyway” records the override with the key's name, marks it used, stores the label and shows it on the card", async () => {
    const { adminKey, tenantId, cookie, csrf, ranked } = await rankedConsole("ui-override");
    const rankingId = /rankings\/([^#]+)/.exec(ranked.location!)![1]!;
    const page = await get(`/ui/shows/ui-override/rankings/${rankingId}`, cookie);
    const against = /name="againstQuestionId" value="([^"]+)"/.exec(page.html)![1]!;
    const res = await post("/ui/shows/ui-override/overrides", cookie, {
      _csrf: csrf,
      ranking: rankingId,
      text: REWORDED,
      model: "claude",
      againstQuestionId: against,
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/ui/shows/ui-override/rankings/${rankingId}#results`);
    const after = await get(`/ui/shows/ui-override/rankings/${rankingId}`, `${cookie}; ${res.flash}`);
    expect(after.html).toContain('data-testid="override"');
    expect(after.html).toMatch(/✓ Used anyway by key_[^ ]+ at <time/);
    expect(after.html).toContain("used anyway by key_");
    expect(after.html).not.toContain('name="againstQuestionId"');
    const history = await v1(adminKey, "GET", "/v1/shows/ui-override/history?minutes=60");
    expect((history.questions as { text: string; wasUsed: boolean; source: string }[]).find((q) => q.text === REWORDED)).toMatchObject({
      wasUsed: true,
      source: "override",
    });
    const label = await env.DB.prepare("SELECT a, b, label, created_by FROM calibration_label_pairs WHERE tenant_id = ?")
      .bind(tenantId)
      .first<{ a: string; b: string; label: string; created_by: string }>();
    expect(label).toMatchObject({ a: REWORDED, b: ASKED, label: "related" });
    expect(label!.created_by).toMatch(/^override:admin:key_/);
  });

  it("ends the show after a confirmation page; the console then says so and ranks no more", async () => {
    const { cookie, csrf } = await rankedConsole("ui-end");
    const confirm = await get("/ui/shows/ui-end/end", cookie);
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain("End show ui-end?");
    expect(confirm.html).toContain("This cannot be undone.");
    const ended = await post("/ui/shows/ui-end/end", cookie, { _csrf: csrf });
    expect(ended.location).toBe("/ui/shows/ui-end");
    const page = await get("/ui/shows/ui-end", `${cookie}; ${ended.flash}`);
    expect(page.html).toContain("The show has ended");
    expect(page.html).toMatch(/data-testid="memory-state">\s*Ended/);
    expect(page.html).toContain('data-testid="ended-line"');
    expect(page.html).toMatch(/<button type="submit" disabled="">\s*Rank/);
    // Nothing that would change the show stays enabled.
    for (const label of ["Add to memory", "Refresh topic", "Pause memory", "Save configuration"])
      expect(page.html, label).toMatch(new RegExp(`<button type="submit"[^>]* disabled="">\\s*${label}`));
    expect(page.html).not.toContain("Mark used");
    expect(page.html).not.toContain("End show…");
  });

  it("checks one question without recording it: a repeat would be filtered, a new one would go through", async () => {
    const { cookie } = await rankedConsole("ui-check");
    const check = (text: string) => get(`/ui/shows/ui-check?check=${encodeURIComponent(text)}`, cookie);
    const repeat = await check(REWORDED);
    expect(repeat.status).toBe(200);
    expect(repeat.html).toMatch(/data-testid="check-result">\s*⚠ Would be filtered: \d+% similar to “/);
    const fresh = await check("Which bird migrates the farthest?");
    expect(fresh.html).toMatch(/data-testid="check-result">\s*✓ Would go through: novelty \d+%/);
    expect(fresh.html).toContain('value="Which bird migrates the farthest?"');
    // Nothing was recorded: the fresh question is not in the history.
    expect((await get("/ui/shows/ui-check", cookie)).html).not.toContain("Which bird migrates the farthest?");
  });

  it("answers a 404 page for a ranking of another show", async () => {
    const { cookie, ranked } = await rankedConsole("ui-404");
    const rankingId = /rankings\/([^#]+)/.exec(ranked.location!)![1]!;
    expect((await get(`/ui/shows/ui-404-other/rankings/${rankingId}`, cookie)).status).toBe(404);
    expect((await get("/ui/shows/ui-404/rankings/..%2Fx", cookie)).status).toBe(404);
  });
});
