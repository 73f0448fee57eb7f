import { describe, expect, it } from "vitest";
import { cleanTicketQuestion } from "../../src/core/text/ticket-clean";

// Realistic ticket bodies as helpdesks deliver them: one line (chat widgets, web forms) or several
// (email), with greetings, inline sign-offs, names, self-introductions and quoted replies. The
// expected text is what may become a production FAQ variant.
const TICKETS: readonly (readonly [subject: string, body: string, expected: string])[] = [
  ["", "how long until I get my refund? Thanks, Ann", "how long until I get my refund?"],
  ["", "Hi team, how long until I get my refund? Thanks, Ann", "how long until I get my refund?"],
  ["", "How do I change my billing address? Thank you!", "How do I change my billing address?"],
  ["", "Can I pay with PayPal? Thanks in advance, Mark", "Can I pay with PayPal?"],
  ["", "Where is my order #4411? Many thanks - Priya", "Where is my order [number]?"],
  ["", "Is there a student discount? Cheers, Tom", "Is there a student discount?"],
  ["", "How do I cancel my subscription? Regards, J. Smith", "How do I cancel my subscription?"],
  ["", "Can I change the delivery date? Best, Laura", "Can I change the delivery date?"],
  ["", "How do I reset my password? Kind regards, Olivia Brown", "How do I reset my password?"],
  ["", "Do you ship to Canada? Thx!", "Do you ship to Canada?"],
  ["", "Do you ship to Norway? ty", "Do you ship to Norway?"],
  ["", "Why was I charged twice this month? Thanks so much for your help!", "Why was I charged twice this month?"],
  ["", "Why was my card declined? Thanks for your help, Dave", "Why was my card declined?"],
  ["", "How can I export my data? Appreciate it!", "How can I export my data?"],
  [
    "",
    "Hello, my name is Sarah and I can't log in to my account. What should I do? Thanks",
    "I can't log in to my account. What should I do?",
  ],
  ["", "Hi, this is Mike from Acme. How do I add a new user to our plan?", "How do I add a new user to our plan?"],
  ["", "Hey there! I'm Tom. Can I get an invoice for order 5521?", "Can I get an invoice for order [number]?"],
  ["", "Good morning, how do I update my VAT number? Thank you, Elena", "how do I update my VAT number?"],
  ["", "Dear Support Team, how do I close my account? Sincerely, Robert", "how do I close my account?"],
  ["", "Hi Anna! How do I download my invoices?", "How do I download my invoices?"],
  [
    "",
    "Hi all,\nHow do I enable two-factor authentication?\n\nBest regards,\nChen Wei\nAcme Ltd.",
    "How do I enable two-factor authentication?",
  ],
  [
    "",
    "Hello,\n\nI ordered the wrong size. Can I exchange it?\n\nThanks,\nMaria\n\nSent from my iPhone",
    "I ordered the wrong size. Can I exchange it?",
  ],
  ["", "Hi,\nwhen will my order ship?\n-- \nJohn Doe | Procurement | Acme", "when will my order ship?"],
  [
    "",
    "How do I add a second shipping address?\n\nOn Tue, 4 Nov 2026 at 10:00, Support <help@x.com> wrote:\n> Hi, thanks for reaching out",
    "How do I add a second shipping address?",
  ],
  ["", "Can I get a refund for an unused license?\n> previous message\n> more", "Can I get a refund for an unused license?"],
  [
    "",
    "Thanks for the quick reply! One more question: can I transfer my license to a colleague?",
    "can I transfer my license to a colleague?",
  ],
  ["", "Hope you're well. How do I change the email on my account?", "How do I change the email on my account?"],
  ["", "Hi there, hope you are doing well! Is the API rate limit per key or per account?", "Is the API rate limit per key or per account?"],
  ["", "您好，请问发票怎么开？谢谢", "请问发票怎么开?"],
  ["", "你好，我的订单什么时候发货？谢谢！", "我的订单什么时候发货?"],
  ["", "您好，退款多久能到账？麻烦了", "退款多久能到账?"],
  ["", "你好，我是小王，怎么修改收货地址？", "怎么修改收货地址?"],
  ["", "请问可以开专票吗？谢谢您", "请问可以开专票吗?"],
  ["", "您好！密码忘了怎么办？辛苦了", "密码忘了怎么办?"],
  // The subject only when the body names no topic of its own, in brackets before the final punctuation; never "Subject: question".
  ["Refund", "how long does it take? Thanks, Ann", "how long does it take (Refund)?"],
  ["Re: Password reset", "Hi Tom, the reset link expired, what now? Cheers", "the reset link expired, what now?"],
  ["Pricing", "How much is it?", "How much is it (Pricing)?"],
  ["AW: WG: Frage zur Rechnung", "Wie lange dauert das?", "Wie lange dauert das (Frage zur Rechnung)?"],
  ["退款", "多久到账？", "多久到账 (退款)?"],
  ["Card refund", "how long does a refund take to show up on my card?", "how long does a refund take to show up on my card?"],
  // Subjects lose reply prefixes, ticket references and a name after a dash; nothing left, nothing added.
  ["Re: Ticket #4711 - Ann Smith", "How do I change my billing address?", "How do I change my billing address?"],
  ["Re: Ticket #4711 - Ann Smith", "what now?", "what now?"],
  ["[Case 123] Refund", "how long does it take?", "how long does it take (Refund)?"],
  ["Fwd: Password reset [#4711]", "what now?", "what now (Password reset)?"],
  ["Refund - Ann Smith", "how long does it take?", "how long does it take (Refund)?"],
  ["Re: Ticket 4711", "Hi,\nThanks", ""],
  // English sign-offs the first corpus missed: formal, unpunctuated, with a company.
  ["", "I would like to know how to reset my password. Yours faithfully, Ann Smith", "I would like to know how to reset my password."],
  [
    "",
    "My invoice shows the wrong VAT number. Can you help? Much appreciated, Sarah",
    "My invoice shows the wrong VAT number. Can you help?",
  ],
  ["", "How do I reset my password Kind regards Ann", "How do I reset my password"],
  ["", "How do I import contacts from a CSV file?  Best regards, Tom Becker, Acme GmbH", "How do I import contacts from a CSV file?"],
  [
    "",
    "How do I reset my password?\n\nBest regards\nTom | Head of IT | Acme GmbH\nMusterstraße 5, 10115 Berlin",
    "How do I reset my password?",
  ],
  ["", "Kind regards", ""],
  // A greeting and a sign-off with a name (a given name the cleaning knows) ask nothing.
  ["", "Hi team,\n\nThanks,\nAnna", ""],
  // Chinese sign-offs
  ["", "请问发票怎么开？谢谢！张伟", "请问发票怎么开?"],
  ["", "请问发票怎么开？\n此致\n敬礼", "请问发票怎么开?"],
  ["", "请问发票怎么开？此致 敬礼", "请问发票怎么开?"],
  ["", "退款多久能到账？祝好，李娜", "退款多久能到账?"],
  // German sign-offs
  ["", "Wie kann ich mein Passwort ändern? Mit freundlichen Grüßen, Hans Müller", "Wie kann ich mein Passwort ändern?"],
  ["", "Wie kann ich mein Passwort ändern?\nViele Grüße\nAnna", "Wie kann ich mein Passwort ändern?"],
  ["", "Wie kann ich mein Passwort ändern?\nMfG Peter", "Wie kann ich mein Passwort ändern?"],
  ["", "Wo finde ich meine Rechnung? MfG Peter", "Wo finde ich meine Rechnung?"],
  ["", "Danke", ""],
  // Names: removed where they sign (a sign-off, or alone on the last lines), and wherever a given name stands: another customer reads the FAQ.
  ["", "How do I add Ann Smith as a team member?", "How do I add [name] as a team member?"],
  ["", "Can Anna see my invoices? Thanks, Ben", "Can [name] see my invoices?"],
  ["", "How do I reset my password?\nAnn", "How do I reset my password?"],
  ["", "how do I reset it? thanks, ann", "how do I reset it?"],
  // Contact details: a placeholder inside the sentence, nothing in a signature or after the question.
  [
    "",
    "My new email is ann.smith@example.com, how do I change the login email?",
    "My new email is [email], how do I change the login email?",
  ],
  ["", "Can you send the invoice to billing@acme.com? Thx", "Can you send the invoice to [email]?"],
  ["", "Can you call me back at (555) 123-4567 about my refund?", "Can you call me back at [phone] about my refund?"],
  ["", "Hello,\nMy number changed to +49 30 1234567. How do I update it?\nThanks!\nJoe", "How do I update it?"],
  ["", "我的手机号是138 0013 8000，怎么修改绑定手机？", "我的手机号是[phone],怎么修改绑定手机?"],
  ["", "我的手机号13800138000收不到验证码怎么办？", "我的手机号[phone]收不到验证码怎么办?"],
  ["", "How do I export my invoices?\nAnn Smith\nTel: +49 30 1234567\nann@acme.com", "How do I export my invoices?"],
  ["", "How do I reset my password? +49 30 1234567", "How do I reset my password?"],
  ["", "How do I reset my password? Best, Tom (tom@acme.com)", "How do I reset my password?"],
  // Ticket references: gone in front, a placeholder inside the sentence.
  ["", "Regarding ticket #4711, how do I get a refund?", "how do I get a refund?"],
  ["", "Hi there, this is about ticket #4711. How do I get a refund?", "How do I get a refund?"],
  ["", "[Case 123] Why was I charged twice?", "Why was I charged twice?"],
  ["", "Re: case no. 123456, how do I get a refund?", "how do I get a refund?"],
  ["", "Ticket-ID: 4711 - why is my account locked?", "why is my account locked?"],
  ["", "INC-123 is still open, why is my account locked?", "[ticket] is still open, why is my account locked?"],
  [
    "",
    "I opened Case 12345 last week but nobody answered, can I get a refund?",
    "I opened [ticket] last week but nobody answered, can I get a refund?",
  ],
  // Numbers that are no phone number stay.
  ["", "My meeting is on 2026-11-04 at 10:00, can I move it?", "My meeting is on 2026-11-04 at 10:00, can I move it?"],
  ["", "Why was I charged 1 299 000 VND instead of 1 000 000?", "Why was I charged 1 299 000 VND instead of 1 000 000?"],
  // An address on the customer's own network is theirs: no phone, and no text for an FAQ either.
  ["", "Is the server at 192.168.100.200 reachable?", "Is the server at [ip] reachable?"],
  ["", "Why do I get error 0x80070005 on version 10.0.19045?", "Why do I get error 0x80070005 on version 10.0.19045?"],
  ["", "Thanks", ""],
  ["", "How do I thank a colleague in the app?", "How do I thank a colleague in the app?"],
  ["", "Can I use the Regards template in emails?", "Can I use the Regards template in emails?"],
  ["", "Why does the invoice say 'Best regards, Acme' at the bottom?", "Why does the invoice say 'Best regards, Acme' at the bottom?"],
];

describe("cleanTicketQuestion on realistic tickets (seed 002: nothing personal reaches a production variant)", () => {
  it.each(TICKETS)("%s | %j", (subject, body, expected) => {
    expect(cleanTicketQuestion(subject, body)).toBe(expected);
  });

  it("never returns the subject as a prefix with a colon, an e-mail address or a phone number", () => {
    for (const [subject, body] of TICKETS) {
      const cleaned = cleanTicketQuestion(subject, body);
      expect(cleaned).not.toMatch(/^[^:?]{1,60}: /);
      expect(cleaned).not.toMatch(/@|1234567|123-4567|0013 8000|13800138000/);
    }
  });
});
