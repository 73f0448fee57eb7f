import { describe, expect, it } from "vitest";
import { heuristicJudge } from "../../src/platform/judge/heuristic";
import { workersAiJudge } from "../../src/adapters/judge/workers-ai";
import { cleanTicketQuestion } from "../../src/core/text/ticket-clean";
import { decideAction, SIMILARITY_MERGE, SIMILARITY_SKIP, SIMILARITY_VARIANT, similarityBand } from "../../src/features/tickets/decide";
import { SIGNATURE_TOLERANCE_SECONDS, signPayload, verifySignature } from "../../src/features/tickets/signature";

describe("webhook signatures", () => {
  const now = Date.UTC(2026, 10, 22, 12);
  const ts = String(now / 1000);
  const body = '{"ticketId":"T-1"}';

  it("accepts a valid signature and refuses a tampered body, a wrong secret, a stale or future timestamp", async () => {
    const signature = await signPayload("s3cret", ts, body);
    expect(signature).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(await verifySignature({ secrets: ["s3cret"], timestamp: ts, signature, rawBody: body, nowMs: now })).toBe(true);
    expect(await verifySignature({ secrets: ["s3cret"], timestamp: ts, signature, rawBody: `${body} `, nowMs: now })).toBe(false);
    expect(await verifySignature({ secrets: ["other"], timestamp: ts, signature, rawBody: body, nowMs: now })).toBe(false);
    const late = now + (SIGNATURE_TOLERANCE_SECONDS + 1) * 1000;
    expect(await verifySignature({ secrets: ["s3cret"], timestamp: ts, signature, rawBody: body, nowMs: late })).toBe(false);
    const early = now - (SIGNATURE_TOLERANCE_SECONDS + 1) * 1000;
    expect(await verifySignature({ secrets: ["s3cret"], timestamp: ts, signature, rawBody: body, nowMs: early })).toBe(false);
  });

  it("accepts either secret during a rotation's overlap", async () => {
    const signature = await signPayload("old", ts, body);
    expect(await verifySignature({ secrets: ["new", "old"], timestamp: ts, signature, rawBody: body, nowMs: now })).toBe(true);
  });

  it.each([
    [undefined, "v1=00"],
    ["abc", "v1=00"],
    [ts, undefined],
    [ts, "v2=abcd"],
    [ts, "v1=zz"],
    [ts, "v1=abcd"],
  ])("refuses malformed headers (%s, %s)", async (timestamp, signature) => {
    expect(await verifySignature({ secrets: ["s3cret"], timestamp, signature, rawBody: body, nowMs: now })).toBe(false);
  });
});

describe("cleanTicketQuestion", () => {
  it("drops greeting, signature and quoted reply, and leaves out a subject the question does not need", () => {
    const text =
      "Hi team,\nhow long does a refund take to show up on my card?\n\nThanks,\nAnna\n\nOn Mon, 3 Nov 2026 Support wrote:\n> old stuff";
    expect(cleanTicketQuestion("Card refund", text)).toBe("how long does a refund take to show up on my card?");
    expect(cleanTicketQuestion("Card refund", "Hi team,\nhow long does it take?\nThanks,\nAnna")).toBe(
      "how long does it take (Card refund)?",
    );
  });

  it("does not repeat a subject the question already contains, and strips Re:", () => {
    expect(cleanTicketQuestion("Re: Password reset", "Hello Anna, the password reset link has expired, what now?")).toBe(
      "the password reset link has expired, what now?",
    );
  });

  it("handles Chinese greetings and sign-offs", () => {
    expect(cleanTicketQuestion("", "您好，请问发票怎么开？\n谢谢")).toBe("请问发票怎么开?"); // NFKC folds the full-width ？
  });

  it("returns the subject when the body is only pleasantries", () => {
    expect(cleanTicketQuestion("Invoice PO-12345 missing", "Hi,\nThanks")).toBe("Invoice missing");
  });
});

describe("decision bands (seed 002)", () => {
  it.each([
    [0.99, "duplicate"],
    [SIMILARITY_SKIP, "duplicate"],
    [0.9, "same_question"],
    [SIMILARITY_VARIANT, "same_question"],
    [0.8, "related"],
    [SIMILARITY_MERGE, "related"],
    [0.69, "new"],
    [null, "new"],
  ] as const)("similarity %s → %s", (similarity, band) => {
    expect(similarityBand(similarity)).toBe(band);
  });

  it("skips only a phrasing the FAQ already has, and files a sure rewording as a variant at any band from related up", () => {
    expect(decideAction("duplicate", "known", { addsInformation: true })).toBe("SKIP");
    expect(decideAction("duplicate", "sure", { addsInformation: false })).toBe("ADD_VARIANT");
    expect(decideAction("same_question", "sure", { addsInformation: false })).toBe("ADD_VARIANT");
    expect(decideAction("related", "sure", { addsInformation: false, mergeOrNew: "NEW" })).toBe("ADD_VARIANT");
    expect(decideAction("same_question", "sure", { addsInformation: true })).toBe("MERGE");
    expect(decideAction("duplicate", "sure", { addsInformation: true })).toBe("MERGE");
    expect(decideAction("new", "sure", { mergeOrNew: "MERGE" })).toBe("NEW");
  });

  it("acts alone only when sure: unsure goes to review as MERGE or the judge's choice, different questions as NEW", () => {
    expect(decideAction("duplicate", "unsure", {})).toBe("MERGE");
    expect(decideAction("same_question", "unsure", { addsInformation: false })).toBe("MERGE");
    expect(decideAction("related", "unsure", { mergeOrNew: "NEW" })).toBe("NEW");
    expect(decideAction("related", "unsure", { mergeOrNew: "MERGE" })).toBe("MERGE");
    expect(decideAction("duplicate", "differs", {})).toBe("NEW");
    expect(decideAction("same_question", "differs", { addsInformation: false })).toBe("NEW");
    expect(decideAction("related", "differs", { mergeOrNew: "MERGE" })).toBe("NEW");
  });
});

describe("heuristic judge", () => {
  const faq = {
    question: "How long do refunds take?",
    answer: "Refunds are issued within 5 business days to the original payment method.",
  };

  it("sees no new information in a restated answer", async () => {
    const v = await heuristicJudge.answerAddsInformation(
      { question: "refund time?", answer: "Refunds take 5 business days to the original payment method." },
      faq,
    );
    expect(v).toMatchObject({ addsInformation: false, judge: "heuristic" });
  });

  it("sees no new information in typography: dashes, quotes, widths", async () => {
    const faq510 = {
      question: "How long does shipping take?",
      answer: "Shipping takes 5-10 business days; you'll get a “tracking” e-mail.",
    };
    const v = await heuristicJudge.answerAddsInformation(
      { question: "shipping time?", answer: 'Shipping takes 5–10 business days; you’ll get a "tracking" e‑mail.' },
      faq510,
    );
    expect(v.addsInformation).toBe(false);
  });

  it("merges new information into a suggested answer", async () => {
    const v = await heuristicJudge.answerAddsInformation(
      {
        question: "refund time?",
        answer: "Refunds take 5 days. Bank transfers in Germany can take another 3 working days because of SEPA batching.",
      },
      faq,
    );
    expect(v.addsInformation).toBe(true);
    expect(v.suggestedAnswer).toContain(faq.answer);
    expect(v.suggestedAnswer).toContain("SEPA batching");
  });

  it("tells the same question from a different one in the related band", async () => {
    expect((await heuristicJudge.mergeOrNew({ question: "How long until refunds arrive?", answer: "" }, faq, 0.78)).action).toBe("MERGE");
    expect((await heuristicJudge.mergeOrNew({ question: "Can I change my shipping address?", answer: "" }, faq, 0.72)).action).toBe("NEW");
  });
});

describe("Workers AI judge (request/response mapping)", () => {
  const faq = { question: "How long do refunds take?", answer: "Within 5 business days." };
  const ticket = { question: "refund time?", answer: "5 days, 8 for SEPA." };

  it("sends chat messages and parses a JSON verdict inside the text", async () => {
    const calls: unknown[] = [];
    const ai = {
      run: async (model: string, inputs: unknown) => {
        calls.push({ model, inputs });
        return { response: 'Sure! {"action": "MERGE", "rationale": "same question"} hope that helps' };
      },
    };
    const v = await workersAiJudge(ai).mergeOrNew(ticket, faq, 0.8);
    expect(v).toEqual({ action: "MERGE", rationale: "same question", judge: "workers-ai:@cf/meta/llama-3.1-8b-instruct" });
    expect(calls[0]).toMatchObject({
      model: "@cf/meta/llama-3.1-8b-instruct",
      inputs: { messages: [{ role: "system" }, { role: "user" }] },
    });
  });

  it("asks once more on garbage, then falls back to the heuristic and says so", async () => {
    let calls = 0;
    const ai = {
      run: async () => {
        calls++;
        return { response: "I think it is probably fine?" };
      },
    };
    const v = await workersAiJudge(ai).answerAddsInformation(ticket, faq);
    expect(calls).toBe(2);
    expect(v.judge).toContain("→ heuristic");
  });

  it("falls back when the model call throws", async () => {
    const ai = {
      run: async () => {
        throw new Error("AI down");
      },
    };
    expect((await workersAiJudge(ai).mergeOrNew(ticket, faq, 0.75)).judge).toContain("heuristic");
  });
});
