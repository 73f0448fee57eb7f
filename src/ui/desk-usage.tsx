/**
 * /ui/faqs/usage: which FAQs help and which do nothing (seed 002's use cases of hit tracking) over
 * GET /v1/faqs/usage: all FAQs' hits per day, the most used, the trend of this week against the
 * previous one, and the FAQs no search ever returned, to review or retire.
 */
import type { Hono } from "hono";
import { api, apiData } from "./api";
import { screen, type UiEnv, viewerOf } from "./context";
import { HitChart, plural } from "./desk-views";
import { takeFlash } from "./flash";
import { Layout, Notice, percent } from "./layout";

const DAYS = 30;
const LIMIT = 10;

/** The change in words as well as an arrow, so it does not rest on colour or a glyph alone. */
const Change = ({ change }: { change: number }) =>
  change > 0 ? (
    <span class="trend up">▲ {change} more</span>
  ) : change < 0 ? (
    <span class="trend down">▼ {-change} fewer</span>
  ) : (
    <span class="trend flat">no change</span>
  );

const FaqLink = ({ id, question }: { id: string; question: string }) => <a href={`/ui/faqs/${id}`}>{question}</a>;

export function usageRoutes(ui: Hono<UiEnv>) {
  ui.get("/faqs/usage", screen, async (c) => {
    const usage = await apiData(api(c).faqs.usage.$get({ query: { days: String(DAYS), limit: String(LIMIT) } }));
    const flash = takeFlash(c);
    return c.html(
      <Layout title="FAQ usage" section="usage" viewer={viewerOf(c)}>
        <h1>FAQ usage</h1>
        {flash && <Notice kind={flash.kind}>{flash.text}</Notice>}
        <p class="muted small">
          A hit is an FAQ that a search with a session id returned (help widgets, assistants). Deleted FAQs are left out.
        </p>
        <div class="kpis" data-testid="usage-kpis">
          <div class="kpi">
            <b>{usage.window.hits}</b>
            {usage.window.hits === 1 ? "hit" : "hits"} in {usage.days} days
          </div>
          <div class="kpi">
            <b>{usage.window.sessions}</b>
            {usage.window.sessions === 1 ? "session" : "sessions"}
          </div>
          <div class="kpi">
            <b>{usage.faqs.used}</b>of {plural(usage.faqs.live, "FAQ")} ever used
          </div>
          <div class="kpi">
            <b>{usage.faqs.neverUsed}</b>never used
          </div>
        </div>
        <div class="grid">
          <section class="card" aria-labelledby="usage-chart-title">
            <h2 id="usage-chart-title">Hits per day, all FAQs</h2>
            <HitChart days={usage.daily} of=" on all FAQs" testId="usage-chart" />
          </section>
          <section class="card" aria-labelledby="trending-title" data-testid="trending">
            <h2 id="trending-title">Trending: last 7 days against the 7 before</h2>
            {usage.trending.length === 0 ? (
              <p class="muted">No hits in the last two weeks.</p>
            ) : (
              <div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">FAQ</th>
                      <th scope="col">This week</th>
                      <th scope="col">Before</th>
                      <th scope="col">Change</th>
                    </tr>
                  </thead>
                  <tbody>
                    {usage.trending.map((t) => (
                      <tr>
                        <td>
                          <FaqLink id={t.id} question={t.question} />
                        </td>
                        <td>{t.thisWeek}</td>
                        <td>{t.previousWeek}</td>
                        <td>
                          <Change change={t.change} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </div>
        <div class="grid">
          <section class="card" aria-labelledby="most-used-title" data-testid="most-used">
            <h2 id="most-used-title">Most used (all time)</h2>
            {usage.mostUsed.length === 0 ? (
              <p class="muted">No FAQ has a hit yet.</p>
            ) : (
              <ol class="list-plain ranked">
                {usage.mostUsed.map((f) => (
                  <li>
                    <FaqLink id={f.id} question={f.question} />
                    <span class="small muted">
                      {" "}
                      · {plural(f.totalHits, "hit")} · {plural(f.uniqueSessions, "session")} · {plural(f.daysWithHits, "day")} · last{" "}
                      {f.lastHitAt?.slice(0, 10) ?? "never"}
                      {f.avgScore !== null ? ` · similarity ${percent(f.avgScore)}` : ""}
                    </span>
                  </li>
                ))}
              </ol>
            )}
          </section>
          <section class="card" aria-labelledby="never-used-title" data-testid="never-used">
            <h2 id="never-used-title">Never used</h2>
            <p class="small muted">Oldest first: reword them, add phrasings people use, or delete what nobody needs.</p>
            {usage.neverUsed.length === 0 ? (
              <p class="muted">Every FAQ has been used.</p>
            ) : (
              <ul class="list-plain">
                {usage.neverUsed.map((f) => (
                  <li>
                    <FaqLink id={f.id} question={f.question} /> <span class="small muted">· added {f.createdAt.slice(0, 10)}</span>
                  </li>
                ))}
              </ul>
            )}
            {usage.neverUsedTruncated && (
              <p class="small muted">
                The oldest {LIMIT} of {usage.faqs.neverUsed} are shown.
              </p>
            )}
          </section>
        </div>
      </Layout>,
    );
  });
}
