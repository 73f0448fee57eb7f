/**
 * /ui/pipeline: the ticket pipeline's statistics (GET /v1/pipeline/stats) and the likely
 * duplicate FAQs of the whole knowledge base, each pair linked so a reviewer can merge or delete.
 */
import type { Hono } from "hono";
import type { PipelineStats } from "./answers";
import { api, apiData } from "./api";
import { screen, type UiEnv, viewerOf } from "./context";
import { plural } from "./desk-views";
import { Layout, percent, type Viewer } from "./layout";

const ACTIONS = ["SKIP", "ADD_VARIANT", "MERGE", "NEW"] as const;

const Duplicates = ({ d }: { d: PipelineStats["duplicates"] }) => (
  <section class="card" aria-labelledby="dup-title" data-testid="likely-duplicates">
    <h2 id="dup-title">Likely duplicate FAQs</h2>
    <p class="small muted">
      Every live FAQ (the newest {d.scanned}, {d.checked} compared), however it was made: pairs the same-question decision calls one
      question, and pairs it was not sure of that the model judge called one overnight (their reason starts "judge:"). Merge them (keep one,
      add the other's phrasing to it as a variant, delete the other).
    </p>
    {d.degraded ? (
      <p class="muted">Not checked now: {d.degraded}.</p>
    ) : d.pairs.length === 0 ? (
      <p class="muted">None found.</p>
    ) : (
      <ul class="list-plain">
        {d.pairs.map((p) => (
          <li class="dup-pair">
            <a href={`/ui/faqs/${p.faqId}`}>{p.question}</a>
            <span class="small muted"> and </span>
            <a href={`/ui/faqs/${p.otherFaqId}`}>{p.otherQuestion}</a> <span class="badge pending">{percent(p.similarity)}</span>{" "}
            <span class="small muted">{p.reason}</span>
          </li>
        ))}
      </ul>
    )}
  </section>
);

const PipelinePage = ({ stats, viewer }: { stats: PipelineStats; viewer: Viewer }) => (
  <Layout title="Pipeline stats" section="pipeline" viewer={viewer}>
    <h1>Ticket pipeline · last {plural(stats.days, "day")}</h1>
    <div class="kpis" data-testid="pipeline-kpis">
      {ACTIONS.map((a) => (
        <div class="kpi">
          <b>{stats.byAction[a] ?? 0}</b>
          {a.replace("_", " ").toLowerCase()}
        </div>
      ))}
      <div class="kpi">
        <b>{stats.variantsPerFaq.mean.toFixed(2)}</b>variants per FAQ
      </div>
      <div class="kpi">
        <b>{stats.duplicates.rate === null ? "—" : percent(stats.duplicates.rate)}</b>likely duplicate FAQs (
        {plural(stats.duplicates.checked, "FAQ")} checked)
      </div>
      <div class="kpi">
        <b>{stats.duplicateCreation.rate === null ? "—" : percent(stats.duplicateCreation.rate)}</b>of FAQs the pipeline made (
        {stats.duplicateCreation.checked} checked)
      </div>
    </div>
    <Duplicates d={stats.duplicates} />
    <div class="grid">
      <section class="card">
        <h2>Decisions by day</h2>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                {ACTIONS.map((a) => (
                  <th scope="col">{a}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {stats.byDay.map((d) => (
                <tr>
                  <td>{d.day}</td>
                  {ACTIONS.map((a) => (
                    <td>{d[a] ?? 0}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section class="card">
        <h2>Tickets and staging</h2>
        <ul class="list-plain">
          {Object.entries(stats.tickets).map(([s, n]) => (
            <li class="spread">
              <span>tickets {s}</span>
              <b>{n}</b>
            </li>
          ))}
          {stats.staging.map((s) => (
            <li class="spread">
              <span>
                staging {s.action} {s.status}
              </span>
              <b>{s.count}</b>
            </li>
          ))}
          <li class="spread">
            <span>FAQs · variants (from the pipeline) · most on one FAQ</span>
            <b>
              {stats.variantsPerFaq.faqs} · {stats.variantsPerFaq.variants} ({stats.variantsPerFaq.pipelineVariants}) ·{" "}
              {stats.variantsPerFaq.max}
            </b>
          </li>
        </ul>
      </section>
    </div>
  </Layout>
);

export function pipelineRoutes(ui: Hono<UiEnv>) {
  ui.get("/pipeline", screen, async (c) => {
    const stats = await apiData(api(c).pipeline.stats.$get({ query: { days: "30" } }));
    return c.html(<PipelinePage stats={stats} viewer={viewerOf(c)} />);
  });
}
