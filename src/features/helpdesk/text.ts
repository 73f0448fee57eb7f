/**
 * Helpdesk message bodies to plain text: HTML → text, then quoted earlier replies, e-mail
 * signatures and "sent from my phone" footers removed. The question's greetings and sign-offs are
 * left to the pipeline's own cleaning (src/core/text/ticket-clean.ts), which runs on every ticket.
 */

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", "#39": "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      // A surrogate code point is no character: decoded, it would be an unpaired surrogate, stored as U+FFFD.
      const character = Number.isInteger(code) && code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
      return character ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** HTML to text: block ends become line breaks; scripts, styles and quoted blocks are dropped. */
export function htmlToText(html: string): string {
  if (!/<[a-z!/]/i.test(html)) return decodeEntities(html);
  const text = html
    .replace(/<(script|style|head)\b[\s\S]*?<\/\1\s*>/gi, "")
    .replace(/<!--[\s\S]*?-->/g, "")
    // Quoted earlier replies: <blockquote>, Gmail's gmail_quote and Outlook's divRplyFwdMsg and everything after.
    .replace(/<blockquote\b[\s\S]*?<\/blockquote\s*>/gi, "\n")
    .replace(/<div[^>]*(?:gmail_quote|divRplyFwdMsg|moz-cite-prefix|yahoo_quoted)[\s\S]*$/i, "")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|div|li|h[1-6]|tr|ul|ol|pre)\s*>/gi, "\n")
    .replace(/<li\b[^>]*>/gi, "- ")
    .replace(/<[^>]+>/g, "");
  return decodeEntities(text);
}

const QUOTE_HEADER =
  /^(?:on .{3,200} wrote:|le .{3,200} a écrit\s?:|am .{3,200} schrieb .{0,100}:|-{2,}\s*original message\s*-{2,}|from:\s.*[\w.+-]+@[\w-]+\.[\w.-]+.*|_{10,})\s*$/iu;
const FOOTER =
  /^(?:sent from my \w+(?: \w+)?|sent from (?:outlook|mail) for \w+|get outlook for \w+|envoyé de mon \w+|von meinem \w+ gesendet)\.?\s*$/iu;
const SIGNATURE_DELIMITER = /^--\s*$/;

/** Removes quoted replies (from the first quote header on), "> " lines, a "-- " signature and phone footers. */
export function stripReplyNoise(text: string): string {
  const kept: string[] = [];
  for (const raw of text.replace(/\r\n?/g, "\n").split("\n")) {
    const line = raw.trim();
    if (QUOTE_HEADER.test(line) || SIGNATURE_DELIMITER.test(line)) break;
    if (line.startsWith(">") || FOOTER.test(line)) continue;
    kept.push(line);
  }
  return kept
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** A provider body (HTML or text) as clean text. */
export function messageText(body: unknown): string {
  return typeof body === "string" ? stripReplyNoise(htmlToText(body)) : "";
}
