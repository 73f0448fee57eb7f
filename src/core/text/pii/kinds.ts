/**
 * The kinds of personal detail a ticket may carry, as a reviewer reads them ("name", "phone"):
 * each removal is marked with its kind, never its value, wherever the cleaned text is shown.
 */
export const PERSONAL_KINDS = [
  "name",
  "company",
  "role",
  "email",
  "phone",
  "address",
  "card",
  "iban",
  "national_id",
  "date_of_birth",
  "health",
  "credential",
  "ip",
  "url",
  "customer_id",
  "quoted_mail",
  "device_signoff",
  "greeting",
  "signature",
  "introduction",
] as const;

export type PersonalKind = (typeof PERSONAL_KINDS)[number];

/** A personal detail found in a text: [start, end) in that text. */
export interface Span {
  kind: PersonalKind;
  start: number;
  end: number;
  /** Removed without a placeholder: a self-introduction clause says nothing the question needs. */
  drop?: true;
}

/** What cleaning removed, as the review desk lists it: the kind, and the original only where the tenant already keeps it (the ticket row). */
export interface Removal {
  kind: PersonalKind;
  /** The removed text, from the ticket as received; never stored with the FAQ. */
  text: string;
}

/** Kinds a reviewer must be told about even when removed: a secret that reached the helpdesk should be revoked. */
export const FLAGGED_KINDS: ReadonlySet<PersonalKind> = new Set(["credential", "card", "iban", "national_id"]);
