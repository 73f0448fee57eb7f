/**
 * Card extraction quality on a labelled set (seed 003: "> 80% of user statements extract at least
 * one card"). A statement is labelled with the cards a reader expects from it (slot, value, and
 * whether it ends the value); an extracted card is correct when slot, value (case- and
 * space-insensitive) and retraction all match an expected card not matched yet.
 */
export interface LabelledCard {
  slot: string;
  value: string;
  retracts?: boolean;
}
export interface LabelledStatement {
  id: string;
  lang: string;
  text: string;
  cards: LabelledCard[];
}
export interface ExtractedForEval {
  slot: string;
  value: string;
  retracts: boolean;
}

export interface CardScores {
  statements: number;
  /** Statements labelled with at least one card. */
  cardBearing: number;
  /** Share of all statements that yield at least one card (the seed's coverage). */
  coverage: number;
  /** Share of card-bearing statements that yield at least one card. */
  coverageOfCardBearing: number;
  /** Correct extracted cards / all extracted cards. */
  precision: number;
  /** Correct extracted cards / all expected cards. */
  recall: number;
  /** Statements labelled with no card that yield one anyway. */
  falsePositiveStatements: number;
  extracted: number;
  expected: number;
  correct: number;
}

const norm = (v: string) => v.toLowerCase().replace(/\s+/gu, " ").trim();

export function scoreCards(set: readonly LabelledStatement[], extract: (text: string) => ExtractedForEval[]): CardScores {
  let withCard = 0;
  let cardBearing = 0;
  let cardBearingWithCard = 0;
  let falsePositiveStatements = 0;
  let extracted = 0;
  let expected = 0;
  let correct = 0;
  for (const statement of set) {
    const got = extract(statement.text);
    const open = [...statement.cards];
    if (got.length > 0) withCard++;
    if (statement.cards.length > 0) {
      cardBearing++;
      if (got.length > 0) cardBearingWithCard++;
    } else if (got.length > 0) falsePositiveStatements++;
    extracted += got.length;
    expected += statement.cards.length;
    for (const card of got) {
      const at = open.findIndex(
        (e) => e.slot === card.slot && norm(e.value) === norm(card.value) && (e.retracts ?? false) === card.retracts,
      );
      if (at >= 0) {
        correct++;
        open.splice(at, 1);
      }
    }
  }
  const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);
  return {
    statements: set.length,
    cardBearing,
    coverage: ratio(withCard, set.length),
    coverageOfCardBearing: ratio(cardBearingWithCard, cardBearing),
    precision: ratio(correct, extracted),
    recall: ratio(correct, expected),
    falsePositiveStatements,
    extracted,
    expected,
    correct,
  };
}
