/**
 * Query understanding for callers and for search: classification, isQuestion, question type and
 * the expansion, the latter read through the KV cache.
 */
import { sha256Hex } from "../base/crypto";
import { classifyQuery, type QueryClass } from "../text/classify";
import { expandQuery, type QueryExpansion } from "../text/expand";
import { informationNeed } from "../text/need";
import { detectLang } from "../text/lang";
import { normalizeText } from "../text/normalize";
import type { QuestionType } from "../text/question-patterns";
import { detectQuestionType } from "../text/question-type";

/**
 * Expansions are rules applied to the text, so they only change when the rules do: bump the
 * key's version with the rules. A week bounds what a stale entry could cost.
 */
export const EXPANSION_CACHE_TTL_SECONDS = 7 * 24 * 3600;

export function expansionCacheKey(lang: string, textHash: string): string {
  return `qexp:v2:${lang}:${textHash}`;
}

/** expandQuery through KV. A cache fault falls back to computing: the cache can only speed things up. */
export async function cachedExpandQuery(kv: KVNamespace, text: string): Promise<QueryExpansion> {
  const { text: normalized, truncated } = normalizeText(text);
  const key = expansionCacheKey(detectLang(normalized), await sha256Hex(normalized));
  const hit = await kv.get<QueryExpansion>(key, "json").catch(() => null);
  // Inputs that differ only past the analysed length share a key; `truncated` is theirs alone.
  if (hit) return { ...hit, truncated };
  const expansion = expandQuery(text);
  await kv.put(key, JSON.stringify(expansion), { expirationTtl: EXPANSION_CACHE_TTL_SECONDS }).catch(() => {});
  return expansion;
}

export interface QueryAnalysis {
  class: QueryClass["class"];
  reason?: string;
  isQuestion: boolean;
  questionType: QuestionType;
  lang: QueryExpansion["lang"];
  expansion: QueryExpansion;
}

export async function analyzeQuery(kv: KVNamespace, text: string): Promise<QueryAnalysis> {
  const classified = classifyQuery(text);
  const need = informationNeed(text).need;
  const expansion = await cachedExpandQuery(kv, text);
  return {
    class: classified.class,
    ...(classified.class === "trivial" ? { reason: classified.reason } : {}),
    isQuestion: need,
    // A type only for a need: "push it" asks nothing of any type.
    questionType: need ? detectQuestionType(text) : "Generic",
    lang: expansion.lang,
    expansion,
  };
}
