/**
 * The evidence of a staged item's decision, decided again now (GET /v1/staging/:id/decision): the
 * closest FAQ question or variant, the similarity band, and the same-question decision with its
 * score, shared words and contrasts, beside what was staged. And the warning a reviewer must see
 * before approving: the knowledge base changed since the item was staged.
 */
import type { Decision } from "./answers";
import { Notice, percent } from "./layout";

/** The bands of src/features/tickets/decide.ts, as a reviewer reads them. */
const BANDS: Record<Decision["band"], string> = {
  duplicate: "duplicate (≥ 95%)",
  same_question: "same question (85–95%)",
  related: "related (70–85%)",
  new: "new (< 70%)",
};
const ACTIONS: Record<Decision["actions"][number], string> = {
  SKIP: "skip (already answered)",
  ADD_VARIANT: "add as a variant",
  MERGE: "merge into the FAQ",
  NEW: "new FAQ",
};
const CONTRASTS: Record<string, string> = {
  code: "another code or number",
  opposite_action: "the opposite action",
  named_thing: "another named thing",
  negation: "negated on one side",
  asked_for: "asks for something else",
  small_word: "a word that changes the answer",
  swapped_word: "two words change places",
};

const actionsText = (actions: Decision["actions"]) =>
  actions.length === 1 ? ACTIONS[actions[0]!] : `${actions.map((a) => ACTIONS[a]).join(" or ")} (the judge would choose)`;

/** Above the card: what changed since staging, and what approving would do now. */
export const KnowledgeBaseChanged = ({ decision }: { decision: Decision }) => {
  const { match } = decision;
  if (!decision.stale || !match) return null;
  const faq = (
    <a href={`/ui/faqs/${match.faqId}`}>
      <b>{match.question}</b>
    </a>
  );
  return (
    <div data-testid="kb-changed">
      <Notice kind="error">
        {decision.duplicate && decision.staged.action === "NEW" ? (
          <>
            The knowledge base changed since this item was staged on {decision.staged.stagedAt.slice(0, 10)}: FAQ {faq} now asks this
            question ({percent(match.similarity)} similar). Approving it as a new FAQ would make a duplicate: reject it, or approve anyway
            if it really is another question.
          </>
        ) : (
          <>
            The knowledge base changed since this item was staged on {decision.staged.stagedAt.slice(0, 10)}: the closest FAQ is now {faq} (
            {percent(match.similarity)}), and the pipeline would {actionsText(decision.actions)}.
          </>
        )}
      </Notice>
    </div>
  );
};

export const EvidencePanel = ({ decision, error }: { decision: Decision | null; error?: string | undefined }) => (
  <section class="card evidence" aria-labelledby="evidence-title" data-testid="evidence">
    <h2 id="evidence-title">Evidence, decided again now</h2>
    {decision === null ? (
      <p class="muted">{error ?? "Not available."}</p>
    ) : (
      <dl class="facts">
        <dt>Staged as</dt>
        <dd>
          {ACTIONS[decision.staged.action]} ·{" "}
          {decision.staged.similarity === null ? "no FAQ was close" : `${percent(decision.staged.similarity)} similar`} · on{" "}
          {decision.staged.stagedAt.slice(0, 10)}
        </dd>
        <dt>Now</dt>
        <dd>
          <b>{actionsText(decision.actions)}</b>
          {decision.stale ? <span class="badge rejected">changed</span> : <span class="badge approved">unchanged</span>}
        </dd>
        <dt>Closest FAQ</dt>
        <dd>
          {decision.match ? (
            <>
              <a href={`/ui/faqs/${decision.match.faqId}`}>{decision.match.question}</a>
              {decision.match.variant && <span class="small muted"> · by its variant “{decision.match.variant.text}”</span>}
              {decision.match.changedSinceStaged && <span class="small muted"> · created or edited after staging</span>}
            </>
          ) : (
            <span class="muted">none close enough</span>
          )}
        </dd>
        {decision.match && (
          <>
            <dt>Similarity</dt>
            <dd>
              {/* An SVG bar: its width is an attribute, where an inline style would break the CSP. */}
              <svg class="sim-meter" viewBox="0 0 100 8" aria-hidden="true">
                <rect class="meter-track" width="100" height="8" rx="4" />
                <rect class={`meter-fill band-${decision.band}`} width={(decision.match.similarity * 100).toFixed(1)} height="8" rx="4" />
              </svg>{" "}
              {percent(decision.match.similarity)} {decision.match.method === "lexical" ? "(shared words)" : "(calibrated)"} · band{" "}
              {BANDS[decision.band]}
            </dd>
          </>
        )}
        {decision.sameQuestion && (
          <>
            <dt>Same question?</dt>
            <dd>
              <span class={`badge relation-${decision.sameQuestion.relation}`}>{decision.sameQuestion.relation}</span>{" "}
              <span class="small">
                {percent(decision.sameQuestion.confidence)} sure · {decision.sameQuestion.reason}
              </span>
            </dd>
            <dt>Score</dt>
            <dd>
              {decision.sameQuestion.evidence.score.toFixed(2)} <span class="small muted">({decision.sameQuestion.evidence.method})</span>
            </dd>
            <dt>Shared words</dt>
            <dd>{percent(decision.sameQuestion.evidence.sharedWords)}</dd>
            <dt>Contrasts</dt>
            <dd>
              {decision.sameQuestion.evidence.contrasts.length === 0 ? (
                <span class="muted">none</span>
              ) : (
                <ul class="list-inline">
                  {decision.sameQuestion.evidence.contrasts.map((c) => (
                    <li>
                      <b>{c.detail}</b> <span class="small muted">({CONTRASTS[c.kind] ?? c.kind})</span>
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </>
        )}
      </dl>
    )}
  </section>
);
