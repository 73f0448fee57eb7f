// Lexical peer for the evaluation harness (bench/eval.mjs): MiniSearch's BM25 over the FAQ
// question text. Bench-only: nothing here is part of the product.
//
// Settings: field ["text"] only, nothing stored, MiniSearch defaults otherwise — its tokenizer
// (split on Unicode spaces/punctuation), lowercasing processTerm, no stemming, no stop words, query
// terms combined with OR, no prefix/fuzzy matching, BM25 with MiniSearch's default parameters
// (k = 1.2, b = 0.7, d = 0.5).
//
// One change for Chinese (and Japanese): MiniSearch's default tokenizer does not segment CJK text,
// so a run of Han/kana characters would be one token. The custom `tokenize` below keeps every
// non-CJK part of a token as the default tokenizer gives it and replaces each CJK run with its
// character unigrams + bigrams ("修改密码" → 修 改 密 码 修改 改密 密码), as the sanity baseline in
// shared/data/README.md does. The same tokenizer is used for documents and queries. English text
// is tokenized exactly as by default. A query term repeated by this (e.g. "密码…密码") counts once
// per occurrence, as MiniSearch does for any repeated query term.
import MiniSearch from "minisearch";

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu;
const defaultTokenize = MiniSearch.getDefault("tokenize");

/** Default MiniSearch tokens, with each CJK run replaced by its character unigrams + bigrams. */
export function tokenizeCjk(text) {
  const out = [];
  for (const token of defaultTokenize(text)) {
    if (!token) continue;
    if (!CJK.test(token)) {
      out.push(token);
      continue;
    }
    let last = 0;
    for (const m of token.matchAll(CJK_RUN)) {
      if (m.index > last) out.push(token.slice(last, m.index));
      const chars = Array.from(m[0]);
      for (const c of chars) out.push(c);
      for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
      last = m.index + m[0].length;
    }
    if (last < token.length) out.push(token.slice(last));
  }
  return out;
}

export function createMiniSearchPeer() {
  const index = new MiniSearch({ idField: "id", fields: ["text"], storeFields: [], tokenize: tokenizeCjk });
  return {
    name: "MiniSearch BM25",
    /** @param {{ id: string, text: string }[]} docs */
    load(docs) {
      index.addAll(docs.map((d) => ({ id: String(d.id), text: String(d.text ?? "") })));
    },
    /** @returns {{ id: string, score: number }[]} */
    search({ text = "", limit = 10 }) {
      return index
        .search(String(text))
        .slice(0, limit)
        .map((r) => ({ id: r.id, score: r.score }));
    },
    close() {},
  };
}
