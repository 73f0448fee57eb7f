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

/** Where today's `file` was at `commit`: the names git's history gives it (following renames), the one that commit has. */
function pathAt(commit, file) {
  const git = (...args) => execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  const names = git("log", "--follow", "--name-only", "--format=", "--", file).split("\n").filter(Boolean);
  const then = [file, ...names].find((name) => {
    try {
      git("cat-file", "-e", `${commit}:${name}`);
      return true;
    } catch {
      return false;
    }
  });
  if (!then) throw new Error(`${file} did not exist at ${commit}`);
  return then;
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
