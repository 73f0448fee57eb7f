/** The FAQ tag rule, for every way a tag gets onto an FAQ (the API's validation, the ticket pipeline). */

/** Letters, digits and `_ . : / -`, starting with a letter or digit, ≤ 64 characters (after trim and lower-casing). */
export const TAG_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N}_.:/-]{0,63}$/u;
export const MAX_TAGS = 32;

/**
 * A helpdesk's ticket tags as FAQ tags: trimmed, lower-cased, those that cannot be FAQ tags
 * ("Billing Issue", "k=B") dropped, repeats removed, at most MAX_TAGS. Without it, an FAQ
 * approved from a ticket carried tags no FAQ route accepts (found by npm run fuzz).
 */
export function toFaqTags(tags: readonly string[]): string[] {
  const kept = tags.map((t) => t.trim().toLowerCase()).filter((t) => TAG_PATTERN.test(t));
  return [...new Set(kept)].slice(0, MAX_TAGS);
}
