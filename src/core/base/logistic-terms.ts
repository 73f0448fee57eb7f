/**
 * Logistic regression over a few dense features and many binary terms (the words of a text), for
 * models too wide for decisions/logistic.ts's Newton steps: full-batch Adam on the weighted log loss, with an
 * L2 penalty of its own for the terms, so a word seen in a handful of rows moves the decision a
 * little and the documented features carry it. A term seen in fewer than `minCount` rows gets no
 * weight: it would only remember its rows.
 */

export interface TermsRow {
  x: readonly number[];
  terms: readonly string[];
  y: number;
  /** The row's weight in the loss; 1 by default. */
  w?: number;
}

export interface TermsModel {
  /** One weight per dense feature, in the rows' order. */
  weights: number[];
  bias: number;
  /** A weight per term kept; a term not listed weighs 0. */
  terms: Record<string, number>;
}

export interface TermsFitOptions {
  /** Penalty on the dense weights (× |w|², over the summed loss). */
  l2?: number;
  /** Penalty on the term weights. */
  l2Terms?: number;
  minCount?: number;
  /** A term whose weight is smaller moves the odds by less than e^minWeight and is not kept: it costs bytes and says nothing. */
  minWeight?: number;
  iterations?: number;
  learningRate?: number;
}

export const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

export function termsLogit(model: TermsModel, x: readonly number[], terms: readonly string[]): number {
  let z = model.bias;
  x.forEach((v, i) => (z += v * (model.weights[i] ?? 0)));
  for (const t of terms) z += model.terms[t] ?? 0;
  return z;
}

export function fitLogisticTerms(rows: readonly TermsRow[], options: TermsFitOptions = {}): TermsModel {
  const { l2 = 0.05, l2Terms = 0.5, minCount = 2, minWeight = 0.1, iterations = 400, learningRate = 0.05 } = options;
  const counts = new Map<string, number>();
  for (const r of rows) for (const t of new Set(r.terms)) counts.set(t, (counts.get(t) ?? 0) + 1);
  const vocabulary = [...counts].filter(([, n]) => n >= minCount).map(([t]) => t);
  const index = new Map(vocabulary.map((t, i) => [t, i]));
  const dense = rows[0]?.x.length ?? 0;
  // Parameters: dense weights, then one per term, then the bias.
  const size = dense + vocabulary.length + 1;
  const theta = new Float64Array(size);
  const m = new Float64Array(size);
  const v = new Float64Array(size);
  const columns = rows.map((r) => [...new Set(r.terms)].flatMap((t) => (index.has(t) ? [dense + index.get(t)!] : [])));
  const total = rows.reduce((s, r) => s + (r.w ?? 1), 0);
  const [beta1, beta2, eps] = [0.9, 0.999, 1e-8];
  for (let step = 1; step <= iterations; step++) {
    const grad = new Float64Array(size);
    rows.forEach((r, n) => {
      let z = theta[size - 1]!;
      for (let j = 0; j < dense; j++) z += theta[j]! * r.x[j]!;
      for (const c of columns[n]!) z += theta[c]!;
      const residual = ((r.w ?? 1) * (sigmoid(z) - r.y)) / total;
      for (let j = 0; j < dense; j++) grad[j]! += residual * r.x[j]!;
      for (const c of columns[n]!) grad[c]! += residual;
      grad[size - 1]! += residual;
    });
    // The penalties are per row of loss, so a model's strength does not depend on how many rows it saw.
    for (let j = 0; j < size - 1; j++) grad[j]! += (2 * (j < dense ? l2 : l2Terms) * theta[j]!) / rows.length;
    for (let j = 0; j < size; j++) {
      m[j] = beta1 * m[j]! + (1 - beta1) * grad[j]!;
      v[j] = beta2 * v[j]! + (1 - beta2) * grad[j]! ** 2;
      theta[j]! -= (learningRate * (m[j]! / (1 - beta1 ** step))) / (Math.sqrt(v[j]! / (1 - beta2 ** step)) + eps);
    }
  }
  const round = (x: number) => Math.round(x * 1e4) / 1e4;
  const terms: Record<string, number> = {};
  vocabulary.forEach((t, i) => {
    const w = round(theta[dense + i]!);
    if (Math.abs(w) >= minWeight) terms[t] = w;
  });
  return { weights: Array.from(theta.subarray(0, dense), round), bias: round(theta[size - 1]!), terms };
}
