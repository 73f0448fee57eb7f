/**
 * The helpdesk provider modules, pure: each verifies exactly its provider's scheme (fixtures signed
 * by the documented procedure, test/fixtures/helpdesk.ts) and maps the solved event to a ticket.
 */
import { describe, expect, it } from "vitest";
import { providers } from "../../src/features/helpdesk/providers";
import { htmlToText, messageText, stripReplyNoise } from "../../src/features/helpdesk/text";
import type { Delivery } from "../../src/features/helpdesk/types";
import { createSecretBox } from "../../src/platform/ports/secret-box";
import {
  freshdeskPayload,
  frontEvent,
  helpscoutConversation,
  intercomClosed,
  QA,
  sign,
  STANDARD_VECTOR,
  standardPayload,
  zendeskEvent,
  zendeskTrigger,
} from "../fixtures/helpdesk";

const NOW = Date.UTC(2026, 10, 1, 10, 0, 0);
const MIN = 60_000;

function delivery(rawBody: string, headers: Record<string, string>, nowMs = NOW): Delivery {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { rawBody, header: (name) => lower[name], nowMs };
}

/** Flips one byte of the body (keeps it a string of the same length). */
const oneByteChanged = (body: string) => body.slice(0, 10) + (body[10] === "a" ? "b" : "a") + body.slice(11);

describe("Standard Webhooks verification", () => {
  it("accepts the specification's published test vector", async () => {
    const d = delivery(
      STANDARD_VECTOR.body,
      { "webhook-id": STANDARD_VECTOR.id, "webhook-timestamp": STANDARD_VECTOR.timestamp, "webhook-signature": STANDARD_VECTOR.signature },
      1614265330_000,
    );
    expect(await providers.standard.verify(d, [STANDARD_VECTOR.secret])).toBe(true);
  });

  it("accepts a header with several signatures when one matches, refuses v1a, and refuses the vector 6 minutes later", async () => {
    const h = { "webhook-id": STANDARD_VECTOR.id, "webhook-timestamp": STANDARD_VECTOR.timestamp };
    const several = `v1,Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eHF1dXg= ${STANDARD_VECTOR.signature}`;
    expect(
      await providers.standard.verify(delivery(STANDARD_VECTOR.body, { ...h, "webhook-signature": several }, 1614265330_000), [
        STANDARD_VECTOR.secret,
      ]),
    ).toBe(true);
    const asymmetric = STANDARD_VECTOR.signature.replace("v1,", "v1a,");
    expect(
      await providers.standard.verify(delivery(STANDARD_VECTOR.body, { ...h, "webhook-signature": asymmetric }, 1614265330_000), [
        STANDARD_VECTOR.secret,
      ]),
    ).toBe(false);
    expect(
      await providers.standard.verify(
        delivery(STANDARD_VECTOR.body, { ...h, "webhook-signature": STANDARD_VECTOR.signature }, 1614265330_000 + 6 * MIN),
        [STANDARD_VECTOR.secret],
      ),
    ).toBe(false);
  });
});

const SECRET = "whsec_c2VjcmV0LWZvci10aGUtdW5pdC10ZXN0cy0zMmJ5dGU=";
const OTHER = "whsec_YW5vdGhlci1zZWNyZXQtb2YtMzItYnl0ZXMtbGVuZ3Q=";

// Each provider: a fixture, how to sign it, and whether its scheme has a timestamp.
const cases = [
  { name: "standard", body: JSON.stringify(standardPayload("S-1")), timestamped: true },
  { name: "zendesk", body: JSON.stringify(zendeskTrigger("5158")), timestamped: true },
  {
    name: "intercom",
    body: JSON.stringify(intercomClosed("c1", [{ part_type: "comment", body: `<p>${QA.answer}</p>`, author: "admin", at: 1793527000 }])),
    timestamped: false,
  },
  {
    name: "helpscout",
    body: JSON.stringify(
      helpscoutConversation(10, [
        { type: "customer", body: QA.question, at: "2026-11-01T09:00:00Z" },
        { type: "reply", body: QA.answer, at: "2026-11-01T09:30:00Z" },
      ]),
    ),
    timestamped: false,
  },
  { name: "front", body: JSON.stringify(frontEvent("cnv_1", "archive")), timestamped: true },
] as const;

describe.each(cases)("$name verification (documented scheme)", ({ name, body }) => {
  const module = providers[name];
  const signer = sign[name] as (secret: string, body: string, o?: { at?: number; signedBody?: string }) => Promise<Record<string, string>>;

  it("accepts a delivery signed with the secret, and with the old secret while both are active", async () => {
    expect(await module.verify(delivery(body, await signer(SECRET, body, { at: NOW })), [SECRET])).toBe(true);
    expect(await module.verify(delivery(body, await signer(SECRET, body, { at: NOW })), [OTHER, SECRET])).toBe(true);
  });

  it("refuses a wrong secret, one changed byte, and no signature", async () => {
    expect(await module.verify(delivery(body, await signer(OTHER, body, { at: NOW })), [SECRET])).toBe(false);
    expect(await module.verify(delivery(oneByteChanged(body), await signer(SECRET, body, { at: NOW })), [SECRET])).toBe(false);
    expect(await module.verify(delivery(body, {}), [SECRET])).toBe(false);
  });
});

describe.each(cases.filter((c) => c.timestamped))("$name timestamp window", ({ name, body }) => {
  const module = providers[name];
  const signer = sign[name] as (secret: string, body: string, o?: { at?: number }) => Promise<Record<string, string>>;

  it("refuses a stale (6 min) and a future-dated (6 min) timestamp, accepts one 4 minutes old", async () => {
    expect(await module.verify(delivery(body, await signer(SECRET, body, { at: NOW - 6 * MIN })), [SECRET])).toBe(false);
    expect(await module.verify(delivery(body, await signer(SECRET, body, { at: NOW + 6 * MIN })), [SECRET])).toBe(false);
    expect(await module.verify(delivery(body, await signer(SECRET, body, { at: NOW - 4 * MIN })), [SECRET])).toBe(true);
  });
});

describe("Freshdesk verification (a token, no signature)", () => {
  const token = "fdtok_aVeryLongRandomTokenOfThirtyTwoChars";
  const body = JSON.stringify(freshdeskPayload("77"));
  it("accepts the token in X-Recall-Token or as the Basic auth password or API-key username, nothing else", async () => {
    expect(await providers.freshdesk.verify(delivery(body, { "x-recall-token": token }), [token])).toBe(true);
    expect(await providers.freshdesk.verify(delivery(body, { authorization: `Basic ${btoa(`recall:${token}`)}` }), [token])).toBe(true);
    expect(await providers.freshdesk.verify(delivery(body, { authorization: `Basic ${btoa(`${token}:X`)}` }), [token])).toBe(true);
    expect(await providers.freshdesk.verify(delivery(body, { "x-recall-token": `${token}x` }), [token])).toBe(false);
    expect(await providers.freshdesk.verify(delivery(body, { authorization: `Basic ${btoa("recall:guess")}` }), [token])).toBe(false);
    expect(await providers.freshdesk.verify(delivery(body, {}), [token])).toBe(false);
  });
});

describe("mapping solved events to tickets", () => {
  const d = delivery("", {});

  it("Standard: ticket.solved → the ticket; another type is skipped", () => {
    expect(providers.standard.map(standardPayload("S-1"), d)).toMatchObject({
      kind: "ticket",
      ticket: { ticketId: "standard:S-1", answer: QA.answer, tags: ["billing"], source: "standard" },
    });
    expect(providers.standard.map(standardPayload("S-1", { type: "ticket.created" }), d)).toMatchObject({ kind: "skip" });
    expect(providers.standard.map({ type: "ticket.solved", data: { ticketId: "x" } }, d)).toMatchObject({ kind: "invalid" });
  });

  it("Zendesk trigger: question from the description without the phone footer, answer without the signature, tags split", () => {
    const m = providers.zendesk.map(zendeskTrigger("5158"), d);
    expect(m).toMatchObject({
      kind: "ticket",
      ticket: {
        ticketId: "zendesk:5158",
        subject: "Invoices as PDF",
        tags: ["billing", "export"],
        resolvedAt: Date.parse("2026-11-01T10:00:00Z"),
      },
    });
    if (m.kind !== "ticket") throw new Error("not a ticket");
    expect(m.ticket.question).toBe(`Hello,\n\n${QA.question}`);
    expect(m.ticket.answer).toBe(`Hi Ann,\n${QA.answer}`);
    expect(providers.zendesk.map(zendeskTrigger("5158", { status: "Pending" }), d)).toMatchObject({
      kind: "skip",
      reason: 'status "pending" is not solved or closed',
    });
    expect(providers.zendesk.map(zendeskTrigger("5158", { comment: "" }), d)).toMatchObject({ kind: "skip", reason: "no public answer" });
  });

  it("Zendesk events: a private comment is never kept, a public staff comment is the answer, SOLVED completes the thread", () => {
    const note = zendeskEvent("5158", "ticket.comment_added", {
      comment: { id: "1", body: "internal: refund manually", is_public: false, author: { id: "8", is_staff: true, name: "Maya" } },
    });
    expect(providers.zendesk.map(note, d)).toMatchObject({ kind: "skip", reason: "internal note (not public)" });
    const reply = zendeskEvent("5158", "ticket.comment_added", {
      comment: { id: "2", body: QA.answer, is_public: true, author: { id: "8", is_staff: true, name: "Maya" } },
    });
    expect(providers.zendesk.map(reply, d)).toEqual({
      kind: "thread_part",
      part: { externalId: "5158", subject: "Invoices as PDF", answer: QA.answer },
    });
    const solved = zendeskEvent("5158", "ticket.status_changed", { current: "SOLVED", previous: "OPEN" });
    expect(providers.zendesk.map(solved, d)).toMatchObject({
      kind: "solved_thread",
      externalId: "5158",
      question: QA.question,
      tags: ["billing"],
    });
    expect(providers.zendesk.map(zendeskEvent("5158", "ticket.status_changed", { current: "PENDING", previous: "OPEN" }), d)).toMatchObject(
      { kind: "skip" },
    );
  });

  it("Intercom: the last admin comment is the answer, a later note never is; bot replies are not answers", () => {
    const parts = [
      { part_type: "comment", body: `<p>${QA.answer}</p>`, author: "admin", at: 1793527000 },
      { part_type: "note", body: "<p>Internal: customer is on the legacy plan</p>", author: "admin", at: 1793527100 },
      { part_type: "close", body: null, author: "admin", at: 1793527200 },
    ];
    const m = providers.intercom.map(intercomClosed("c1", parts), d);
    expect(m).toMatchObject({
      kind: "ticket",
      ticket: {
        ticketId: "intercom:c1",
        question: `Hi there,\n${QA.question}`,
        answer: QA.answer,
        tags: ["billing"],
        resolvedAt: 1793527200_000,
      },
    });
    expect(
      providers.intercom.map(
        intercomClosed("c2", [parts[1]!, { part_type: "comment", body: "Hello from the bot", author: "bot", at: 1 }]),
        d,
      ),
    ).toMatchObject({ kind: "skip", reason: "no public admin reply (notes are never answers)" });
    expect(providers.intercom.map(intercomClosed("c3", parts, { topic: "conversation.admin.replied" }), d)).toMatchObject({ kind: "skip" });
  });

  it("Help Scout: the first customer thread and the last reply; a note is never the answer; only closed", () => {
    const threads = [
      { type: "customer", body: `<p>${QA.question}</p>`, at: "2026-11-01T09:00:00Z" },
      { type: "reply", body: `<p>${QA.answer}</p>`, at: "2026-11-01T09:30:00Z" },
      { type: "note", body: "<p>Internal: escalate next time</p>", at: "2026-11-01T09:40:00Z" },
    ];
    const delivered = delivery("", { "x-helpscout-event": "convo.status" });
    expect(providers.helpscout.map(helpscoutConversation(10, threads), delivered)).toMatchObject({
      kind: "ticket",
      ticket: { ticketId: "helpscout:10", question: QA.question, answer: QA.answer, tags: ["billing"] },
    });
    expect(providers.helpscout.map(helpscoutConversation(10, [threads[0]!, threads[2]!]), delivered)).toMatchObject({
      kind: "skip",
      reason: "no public agent reply (notes are never answers)",
    });
    expect(providers.helpscout.map(helpscoutConversation(10, threads, { status: "active" }), delivered)).toMatchObject({ kind: "skip" });
    expect(
      providers.helpscout.map(helpscoutConversation(10, threads), delivery("", { "x-helpscout-event": "convo.created" })),
    ).toMatchObject({ kind: "skip" });
  });

  it("Freshdesk: Resolved → the ticket with the quoted reply removed; Open is skipped", () => {
    expect(providers.freshdesk.map(freshdeskPayload("77"), d)).toMatchObject({
      kind: "ticket",
      ticket: { ticketId: "freshdesk:77", question: `Hi,\n${QA.question}`, answer: QA.answer, tags: ["billing", "export"] },
    });
    expect(providers.freshdesk.map(freshdeskPayload("77", { status: "Open" }), d)).toMatchObject({ kind: "skip" });
  });

  it("Front: inbound is the question, outbound the answer, a comment never; archive completes the thread", () => {
    expect(providers.front.map(frontEvent("cnv_1", "inbound", { body: `<p>${QA.question}</p>`, is_inbound: true }), d)).toMatchObject({
      kind: "thread_part",
      part: { question: QA.question },
    });
    expect(providers.front.map(frontEvent("cnv_1", "out_reply", { body: `<p>${QA.answer}</p>`, is_inbound: false }), d)).toMatchObject({
      kind: "thread_part",
      part: { answer: QA.answer },
    });
    expect(providers.front.map(frontEvent("cnv_1", "comment", { body: "internal", is_inbound: false }), d)).toMatchObject({
      kind: "skip",
      reason: "internal comment (never an answer)",
    });
    expect(providers.front.map(frontEvent("cnv_1", "archive"), d)).toMatchObject({
      kind: "solved_thread",
      externalId: "cnv_1",
      tags: ["billing"],
    });
    expect(providers.front.map(frontEvent("cnv_1", "inbound"), d)).toMatchObject({
      kind: "skip",
      reason: "event preview without the message body (enable full event data)",
    });
  });
});

describe("helpdesk bodies to text", () => {
  it("turns HTML into lines, decodes entities and drops blockquotes and Gmail quotes", () => {
    expect(htmlToText("<p>Fish &amp; chips&nbsp;&#8364;5</p><p>second<br>line</p>")).toBe("Fish & chips €5\nsecond\nline\n");
    // A surrogate code point is no character: its entity stays as written rather than becoming an unpaired surrogate.
    expect(htmlToText("a &#xD800; b &#55357; c &#x1F408;")).toBe("a &#xD800; b &#55357; c 🐈");
    expect(messageText('<div>Answer</div><div class="gmail_quote">On Mon Ann wrote:<blockquote>old</blockquote></div>')).toBe("Answer");
  });

  it("removes quoted replies, signatures and phone footers but keeps the message", () => {
    expect(stripReplyNoise("The export fails.\n\nSent from my iPhone")).toBe("The export fails.");
    expect(stripReplyNoise("The export fails.\n> earlier text\nStill failing.")).toBe("The export fails.\nStill failing.");
    expect(stripReplyNoise("It works now.\n\nOn Mon, 2 Nov 2026, Maya <maya@example.com> wrote:\n> Try again")).toBe("It works now.");
    expect(stripReplyNoise("Done.\n--\nMaya | Support | +49 30 1234")).toBe("Done.");
    expect(stripReplyNoise("Done.\n-----Original Message-----\nFrom: x")).toBe("Done.");
    expect(stripReplyNoise("Done.\nFrom: Ann Smith <ann@example.com>\nSent: Monday")).toBe("Done.");
    expect(stripReplyNoise("From: my Berlin office, how long does shipping take?")).toBe(
      "From: my Berlin office, how long does shipping take?",
    );
  });
});

describe("secret box (AES-GCM under SECRETS_KEK)", () => {
  const k1 = `k1:${btoa(String.fromCharCode(...new Uint8Array(32).fill(1)))}`;
  const k2 = `k2:${btoa(String.fromCharCode(...new Uint8Array(32).fill(2)))}`;

  it("seals and opens; another row's additional data or a changed byte does not open", async () => {
    const box = await createSecretBox(k1);
    const sealed = await box.seal("whsec_secret", "webhook_secret:t1:whs_1");
    expect(sealed.keyId).toBe("k1");
    expect(sealed.ciphertext).not.toContain("secret");
    expect(await box.open(sealed.ciphertext, "k1", "webhook_secret:t1:whs_1")).toBe("whsec_secret");
    await expect(box.open(sealed.ciphertext, "k1", "webhook_secret:t1:whs_2")).rejects.toThrow();
    const tampered = sealed.ciphertext.slice(0, 20) + (sealed.ciphertext[20] === "A" ? "B" : "A") + sealed.ciphertext.slice(21);
    await expect(box.open(tampered, "k1", "webhook_secret:t1:whs_1")).rejects.toThrow();
  });

  it("rotates: a keyring with the new key first seals with it and still opens the old key's ciphertexts", async () => {
    const sealed = await (await createSecretBox(k1)).seal("s", "ad");
    const rotated = await createSecretBox(`${k2},${k1}`);
    expect(rotated.currentKeyId).toBe("k2");
    expect(await rotated.open(sealed.ciphertext, "k1", "ad")).toBe("s");
    await expect((await createSecretBox(k2)).open(sealed.ciphertext, "k1", "ad")).rejects.toThrow('SECRETS_KEK has no key "k1"');
  });

  it("refuses a missing or malformed SECRETS_KEK with a message that names the binding and never the key", async () => {
    await expect(createSecretBox(undefined)).rejects.toThrow("SECRETS_KEK is not set");
    await expect(createSecretBox("k1:c2hvcnQ=")).rejects.toThrow('key "k1" must be 32 bytes');
    await expect(createSecretBox("no-colon")).rejects.toThrow("keyId:base64");
  });
});
