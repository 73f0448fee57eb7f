/**
 * Query enrichment (seed 001, part B): appending the files a session touched biases the query's
 * embedding toward that work. "why was this changed?" →
 * "why was this changed?\n\n[Context: recently touched files: enable.rs, git.rs]".
 */
export function enrichQuery(query: string, fileNames: readonly string[]): string {
  if (fileNames.length === 0) return query;
  return `${query}\n\n[Context: recently touched files: ${fileNames.join(", ")}]`;
}
