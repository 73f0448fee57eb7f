/** The shape of a memory-card rule (card-patterns.ts) and the helper most rules are written with. */
export type CardKind = "fact" | "preference" | "event" | "profile" | "relationship" | "goal";
export type Polarity = "positive" | "negative";

export interface CardRule {
  kind: CardKind;
  entity: string;
  slot: string;
  pattern: RegExp;
  /** Builds the value from the match (default: the `value` group). */
  value?: (m: RegExpExecArray) => string;
  /** The `extra` key that keeps the `what` group (the kind of device, the relation word). */
  detail?: string;
  polarity?: Polarity;
  confidence: number;
}

/** A rule about the user (every rule's entity). */
export const user = (kind: CardKind, slot: string, confidence: number, pattern: RegExp, more: Partial<CardRule> = {}): CardRule => ({
  kind,
  entity: "user",
  slot,
  confidence,
  pattern,
  ...more,
});
