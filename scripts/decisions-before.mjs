// Code as it shipped at an earlier commit, for the "before" columns of `npm run decisions` and
// `npm run pii`: that commit's src/ is exported from git into a temporary folder and bundled,
// so "before" is the code and table that commit shipped, not a re-creation of them. The folder is
// under results/ (git-ignored) so the bundle resolves the project's node_modules.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { importTs } from "../bench/support/bundle.mjs";

/** The decisions entry of `commit` (scripts/entries/decisions.ts as it was), bundled and imported. */
export const decisionsAt = (commit) => sourceAt(commit, "scripts/entries/decisions.ts");

/** `names` exported by `module` (a path under src/ today) as it was at `commit`, bundled and imported. */
export async function entryAt(commit, module, ...names) {
  const then = pathAt(commit, module);
  return sourceAt(commit, "scripts/entries/before.ts", `export { ${names.join(", ")} } from "../../${then.replace(/\.ts$/, "")}";\n`);
}

/** Where today's `file` was at `commit`: files moved since (src/text → src/core/text) are followed by git's rename detection. */
function pathAt(commit, file) {
  const git = (...args) => execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  try {
    git("cat-file", "-e", `${commit}:${file}`);
    return file;
  } catch {
    const renames = git("diff", "--name-status", "-M", "--diff-filter=R", commit, "HEAD", "--", "src").split("\n");
    const moved = renames.map((line) => line.split("\t")).find(([, , to]) => to === file);
    if (!moved) throw new Error(`${file} did not exist at ${commit}`);
    return moved[1];
  }
}

async function sourceAt(commit, entry, entrySource) {
  mkdirSync("results", { recursive: true });
  const dir = path.resolve(mkdtempSync(path.join("results", "before-")));
  try {
    execFileSync("sh", ["-c", 'git archive "$0" src scripts/entries | tar -x -C "$1"', commit, dir]);
    if (entrySource) writeFileSync(path.join(dir, entry), entrySource);
    return await importTs(new URL(`file://${path.join(dir, entry)}`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
