import { describe, expect, it } from "vitest";
import { cleanTicketQuestion } from "../../src/text/ticket-clean";

// Realistic ticket bodies as helpdesks deliver them: one line (chat widgets, web forms) or several
// (email), with greetings, inline sign-offs, names, self-introductions and quoted replies. The
// expected text is what may become a production FAQ variant.
const TICKETS: readonly (readonly [subject: string, body: string, expected: string])[] = [
  ["", "how long until I get my refund? Thanks, Ann", "how long until I get my refund?"],
  ["", "Hi team, how long until I get my refund? Thanks, Ann", "how long until I get my refund?"],
  ["", "How do I change my billing address? Thank you!", "How do I change my billing address?"],
  ["", "Can I pay with PayPal? Thanks in advance, Mark", "Can I pay with PayPal?"],
  ["", "Where is my order #4411? Many thanks - Priya", "Where is my order #4411?"],
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
  ["", "Hey there! I'm Tom. Can I get an invoice for order 5521?", "Can I get an invoice for order 5521?"],
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
  ["Refund", "how long does it take? Thanks, Ann", "Refund: how long does it take?"],
  ["Re: Password reset", "Hi Tom, the reset link expired, what now? Cheers", "Password reset: the reset link expired, what now?"],
  ["", "Thanks", ""],
  ["", "How do I thank a colleague in the app?", "How do I thank a colleague in the app?"],
  ["", "Can I use the Regards template in emails?", "Can I use the Regards template in emails?"],
  ["", "Why does the invoice say 'Best regards, Acme' at the bottom?", "Why does the invoice say 'Best regards, Acme' at the bottom?"],
];

describe("cleanTicketQuestion on realistic tickets (seed 002: nothing personal reaches a production variant)", () => {
  it.each(TICKETS)("%s | %j", (subject, body, expected) => {
    expect(cleanTicketQuestion(subject, body)).toBe(expected);
  });
});
