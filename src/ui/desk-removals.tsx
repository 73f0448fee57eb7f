/**
 * What cleaning took out of a ticket before anything was staged, as the reviewer sees it: in the
 * cleaned text each placeholder is marked with its kind ("phone"), and a list names every removal
 * by kind. The removed text itself shows only when the reviewer opens it (it comes from the
 * ticket row, the one place it is kept), with a button that puts a piece back into the question
 * when it was not personal after all (client.ts; without script, the reviewer copies it).
 */
import { PLACEHOLDER, placeholders } from "../core/text/pii/redact";
import type { Ticket } from "./answers";

/** How a reviewer reads each kind. */
const KIND_LABEL: Readonly<Record<string, string>> = {
  name: "name",
  company: "company",
  role: "role",
  email: "e-mail",
  phone: "phone",
  address: "address",
  card: "card",
  iban: "bank account",
  national_id: "ID number",
  date_of_birth: "date of birth",
  health: "health detail",
  credential: "password or key",
  ip: "IP address",
  url: "personal link",
  customer_id: "customer's number",
  quoted_mail: "quoted e-mail",
  device_signoff: "device footer",
  greeting: "greeting",
  signature: "signature",
  introduction: "self-introduction",
};

/** Kinds that can stand in a question: a piece the reviewer restores goes back where its placeholder is. */
const RESTORABLE = new Set(["name", "company", "role", "customer_id", "address", "url", "date_of_birth", "health", "ip", "phone", "email"]);

/** The cleaned text, each placeholder marked as a removal of its kind. */
export const CleanedText = ({ text }: { text: string }) => {
  const parts: (string | { placeholder: string })[] = [];
  let at = 0;
  for (const m of text.matchAll(placeholders())) {
    parts.push(text.slice(at, m.index), { placeholder: m[0] });
    at = m.index + m[0].length;
  }
  parts.push(text.slice(at));
  return (
    <>
      {parts.map((p) =>
        typeof p === "string" ? (
          p
        ) : (
          <mark class="removal" title="removed before staging">
            {p.placeholder.slice(1, -1)}
          </mark>
        ),
      )}
    </>
  );
};

export const Removals = ({
  removals,
  restoreInto,
}: {
  removals: NonNullable<Ticket["cleaning"]>["removals"];
  restoreInto: string | null;
}) => {
  if (removals.length === 0) return <p class="small muted">Nothing personal was found in this ticket.</p>;
  const counts = new Map<string, number>();
  for (const r of removals) counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
  return (
    <details class="removals" data-testid="removals">
      <summary class="small">
        Removed before staging:{" "}
        {[...counts].map(([kind, n]) => (
          <span class="badge removal">
            {KIND_LABEL[kind] ?? kind}
            {n > 1 ? ` ×${n}` : ""}
          </span>
        ))}
      </summary>
      <ul class="small">
        {removals.map((r) => (
          <li>
            <span class="badge removal">{KIND_LABEL[r.kind] ?? r.kind}</span> <q>{r.text}</q>{" "}
            {restoreInto && RESTORABLE.has(r.kind) && (
              <button
                type="button"
                class="secondary small"
                data-restore-into={restoreInto}
                data-restore-placeholder={PLACEHOLDER[r.kind] ?? ""}
                data-restore-text={r.text}
              >
                Restore in the question
              </button>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
};
