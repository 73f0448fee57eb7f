/**
 * The review page's keyboard shortcuts, served as /ui/assets/review-<hash>.js (CSP: script-src
 * 'self'; no inline script) and loaded by that page only. Without it every action is a plain
 * link or form. Keys are ignored while typing in a field or with a modifier held:
 *   a  approve (submits the approve form as it stands, edits included)
 *   r  reject: opens the reject step and puts the cursor in its reason (Enter then rejects)
 *   j / n  next item · k / p  previous item
 * Kept as a string: the Worker serves it as is; plain ES2020.
 */
export const REVIEW_KEYS_JS = String.raw`"use strict";
(() => {
  const typing = (el) => el instanceof HTMLElement && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
  const follow = (selector) => {
    const link = document.querySelector(selector);
    if (link instanceof HTMLAnchorElement) { window.location.assign(link.href); return true; }
    return false;
  };
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || typing(event.target)) return;
    let handled = false;
    switch (event.key) {
      case "a": {
        const form = document.querySelector("form[data-review-approve]");
        if (form instanceof HTMLFormElement) { form.requestSubmit(); handled = true; }
        break;
      }
      case "r": {
        const step = document.querySelector("details[data-review-reject]");
        if (step instanceof HTMLDetailsElement) {
          step.open = true;
          const reason = step.querySelector("input[name=reason]");
          if (reason instanceof HTMLInputElement) reason.focus();
          handled = true;
        }
        break;
      }
      case "j": case "n": handled = follow("a[data-review-next]"); break;
      case "k": case "p": handled = follow("a[data-review-prev]"); break;
    }
    if (handled) event.preventDefault();
  });
})();
`;
