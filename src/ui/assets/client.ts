/**
 * The one client script of /ui, served by the Worker as /ui/assets/app-<hash>.js (CSP: script-src
 * 'self'). Everything works without it (plain forms, redirect after post); with it:
 *   - [data-live-src] regions re-fetch their server-rendered fragment every 2 s (the producer
 *     console sees other clients' questions without a reload);
 *   - form[data-async] posts in the background (the rank results stay on screen) and then
 *     refreshes the live regions at once;
 *   - time[data-local-time] (written in UTC by the server) shows the reader's own clock time;
 *   - button[data-restore-into] puts a piece cleaning removed back into a field: in place of its
 *     placeholder ("[name]"), or at the end when the placeholder is gone (the review desk).
 * Kept as a string: the Worker serves it as is; it is plain ES2020 for any current browser.
 */
export const CLIENT_JS = String.raw`"use strict";
(() => {
  const POLL_MS = 2000;
  const regions = () => Array.from(document.querySelectorAll("[data-live-src]"));

  function localizeTimes(root) {
    for (const t of root.querySelectorAll("time[data-local-time]")) {
      const at = new Date(t.getAttribute("datetime"));
      if (!Number.isNaN(at.getTime())) t.textContent = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    }
  }
  localizeTimes(document);

  async function refresh(region) {
    const url = region.getAttribute("data-live-src");
    try {
      const response = await fetch(url, { credentials: "same-origin", headers: { accept: "text/html", "x-recall-fragment": "1" } });
      if (response.status === 401) { window.location.assign("/ui"); return; }
      if (!response.ok) return;
      const html = await response.text();
      if (region.getAttribute("data-live-html") === html) return;
      const focused = document.activeElement && region.contains(document.activeElement) ? document.activeElement.id : null;
      region.innerHTML = html;
      region.setAttribute("data-live-html", html);
      localizeTimes(region);
      if (focused) { const again = document.getElementById(focused); if (again) again.focus(); }
    } catch (_) { /* offline for a moment: the next tick tries again */ }
  }

  function refreshAll() { return Promise.all(regions().map(refresh)); }

  let timer = null;
  function schedule() {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(async () => { if (!document.hidden) await refreshAll(); schedule(); }, POLL_MS);
  }
  if (regions().length > 0) schedule();
  document.addEventListener("visibilitychange", () => { if (!document.hidden && regions().length > 0) refreshAll(); });

  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element ? event.target.closest("button[data-restore-into]") : null;
    if (!button) return;
    const field = document.getElementById(button.getAttribute("data-restore-into"));
    if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)) return;
    const placeholder = button.getAttribute("data-restore-placeholder");
    const text = button.getAttribute("data-restore-text");
    field.value = placeholder && field.value.includes(placeholder) ? field.value.replace(placeholder, text) : (field.value.trim() + " " + text).trim();
    field.focus();
    button.disabled = true;
  });

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-async")) return;
    event.preventDefault();
    const button = form.querySelector("button[type=submit], button:not([type])");
    const status = form.querySelector("[data-async-status]");
    if (button) button.disabled = true;
    try {
      const response = await fetch(form.action, {
        method: "POST",
        credentials: "same-origin",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-recall-fragment": "1" },
        body: new URLSearchParams(new FormData(form)),
      });
      if (response.status === 401) { window.location.assign("/ui"); return; }
      const done = form.getAttribute("data-done-label");
      if (response.ok) {
        // One confirmation: the button becomes the done label (it stays disabled), or the status line says it.
        if (button && done) { button.textContent = done; if (status) status.textContent = ""; }
        else { if (status) status.textContent = done || "Done"; if (button) button.disabled = false; }
        await refreshAll();
      } else {
        if (status) status.textContent = await response.text();
        if (button) button.disabled = false;
      }
    } catch (_) {
      if (status) status.textContent = "Could not reach the server; try again.";
      if (button) button.disabled = false;
    }
  });
})();
`;
