// The same-question decision as it shipped at an earlier commit, for `npm run decisions`'s
// "before" column: that commit's src/ is exported from git into a temporary folder and bundled,
// so "before" is the code and table that commit shipped, not a re-creation of them. The folder is
// under results/ (git-ignored) so the bundle resolves the project's node_modules.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { importTs } from "../bench/support/bundle.mjs";

/** The decisions entry of `commit` (scripts/entries/decisions.ts as it was), bundled and imported. */
export async function decisionsAt(commit) {
  mkdirSync("results", { recursive: true });
  const dir = path.resolve(mkdtempSync(path.join("results", "before-")));
  try {
    execFileSync("sh", ["-c", 'git archive "$0" src scripts/entries | tar -x -C "$1"', commit, dir]);
    return await importTs(new URL(`file://${path.join(dir, "scripts/entries/decisions.ts")}`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
