/** A unit of meaning of a question (units.ts reads them, align.ts matches them). */
export type UnitKind = "content" | "number" | "small" | "frame";

export interface Unit {
  /** The words as written (lower case): what a person reads in "only in a: team". */
  text: string;
  /** What is compared: the lemma, the digits, the small word's meaning, the frame. */
  key: string;
  kind: UnitKind;
  /** For small words: which kind of difference they make ("period", "owner" …). */
  group?: SmallGroup;
  /** Position among the text's units, for the order check. */
  at: number;
  /** Said in a sentence that asks nothing, beside one that does. */
  aside?: true;
}

export type SmallGroup =
  | "time"
  | "period"
  | "degree"
  | "owner"
  | "person"
  | "quantity"
  | "negation"
  | "restriction"
  | "tense"
  | "modality"
  | "particle"
  | "preposition"
  | "asked_for";
