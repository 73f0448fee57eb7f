// Retrieval sets in the JSONL format of ../shared/data (corpus.jsonl {id, text, answer?};
// queries.jsonl {id, text, relevant: [ids]}), for the eval and the fusion fit.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { importFaqs } from "./worker.mjs";

const here = dirname(fileURLToPath(import.meta.url));

export function readJsonl(file) {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
}

/** Every set under ../shared/data (beside the project). */
export function defaultSets() {
  return setsUnder(join(here, "..", "..", "..", "shared", "data"));
}

const isSet = (dir) => existsSync(join(dir, "corpus.jsonl")) && existsSync(join(dir, "queries.jsonl"));

/** `dir` itself when it is a set (corpus.jsonl + queries.jsonl), else the sets directly under it, by name. */
export function setsUnder(dir) {
  if (isSet(dir)) return [dir];
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .map((d) => join(dir, d))
    .filter(isSet);
}

/** A set's corpus and its queries that have at least one relevant document. */
export function loadSet(dir, maxQueries = Number.POSITIVE_INFINITY) {
  const corpus = readJsonl(join(dir, "corpus.jsonl"));
  const queries = readJsonl(join(dir, "queries.jsonl"))
    .filter((q) => q.relevant?.length > 0)
    .slice(0, maxQueries);
  return { corpus, queries };
}

/**
 * Imports a corpus as FAQs through POST /v1/faqs/import (NDJSON, 1,000 a request) and returns
 * FAQ id → document id. Refused lines are reported (they count as misses).
 */
export async function importCorpus(worker, key, corpus, onProgress = () => {}) {
  const faqToDoc = new Map();
  const tag = Math.random().toString(36).slice(2, 10);
  for (let i = 0; i < corpus.length; i += 1000) {
    const chunk = corpus.slice(i, i + 1000);
    // Each line keeps an id (run-tagged), as an export's do: the duplicate check, which refuses a plain line asking what an
    // earlier one asks, leaves it alone. A retrieval set holds paraphrases on purpose (lcqmc's corpus is pairs of them).
    const ndjson = chunk.map((d) => JSON.stringify({ id: `${tag}-${d.id}`, question: d.text, answer: d.answer || d.text })).join("\n");
    const { json } = await importFaqs(worker.client(key), ndjson);
    if (json.errors?.length)
      console.warn(`  WARNING: ${json.errors.length} lines refused (they count as misses), e.g. ${JSON.stringify(json.errors[0])}`);
    // A vector mode over FAQs without vectors would measure nothing and look like a score.
    if (json.counts?.pendingIndex > 0)
      throw new Error(`import: ${json.counts.pendingIndex} FAQs left without vectors: is the embedding model up?`);
    for (const { line, id } of json.imported) faqToDoc.set(id, chunk[line - 1].id);
    onProgress(Math.min(corpus.length, i + 1000));
  }
  return faqToDoc;
}
