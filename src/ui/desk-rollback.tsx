/**
 * Rolling an FAQ back, in two steps: the versions table links here (GET), and this page shows
 * what the FAQ will say afterwards (the word diff from the current text to the version's) with
 * the one button that does it. A page rather than a disclosure in the table: the diff needs room,
 * and a table cell on a phone has none.
 */
import type { Hono } from "hono";
import { api, apiData } from "./api";
import { screen, type UiEnv, UiFailure, viewerOf } from "./context";
import { WordDiff } from "./desk-views";
import { Csrf, Layout } from "./layout";

/** The FAQ page lists the newest 20 versions; this finds any of the newest 100. */
const VERSIONS_READ = 100;

export function rollbackRoutes(ui: Hono<UiEnv>) {
  ui.get("/faqs/:id/rollback/:version", screen, async (c) => {
    const { id, version } = c.req.param();
    const faqApi = api(c).faqs[":id"];
    const param = { id: encodeURIComponent(id) };
    const [faq, versions] = await Promise.all([
      apiData(faqApi.$get({ param })),
      apiData(faqApi.versions.$get({ param, query: { limit: String(VERSIONS_READ) } })),
    ]);
    const target = versions.versions.find((v) => String(v.versionNumber) === version);
    if (!target || target.versionNumber === faq.version)
      throw new UiFailure(404, `No earlier version ${version} of this FAQ to roll back to`);
    const viewer = viewerOf(c);
    const back = `/ui/faqs/${faq.id}`;
    return c.html(
      <Layout title={`Roll back to version ${target.versionNumber}`} section="faqs" viewer={viewer}>
        <p class="small">
          <a href={back}>← {faq.question}</a>
        </p>
        <h1>Roll back to version {target.versionNumber}?</h1>
        <section class="card" aria-labelledby="rollback-diff-title">
          <h2 id="rollback-diff-title">
            What changes: the current v{faq.version} → v{target.versionNumber}
          </h2>
          <h3>Question</h3>
          <WordDiff before={faq.question} after={target.question} label="Question after the rollback" />
          <h3 class="spaced">Answer</h3>
          <WordDiff before={faq.answer} after={target.answer} label="Answer after the rollback" />
          <p class="small muted">
            Tags: {target.tags.join(", ") || "none"}. The current text is kept: the rollback is saved as a new version, which can be rolled
            back in turn.
          </p>
          <form method="post" action={`${back}/rollback/${target.versionNumber}`} class="row">
            <Csrf viewer={viewer} />
            <button type="submit">Yes, roll back to v{target.versionNumber}</button>
            <a class="button secondary" href={back}>
              Cancel
            </a>
          </form>
        </section>
      </Layout>,
    );
  });
}
