import { describe, expect, it } from "vitest";
import { MAX_HOOK_CONTEXT_CHARS, promptContextOutput, scopeForProject, touchedFile } from "../../src/features/hooks/claude-code";

describe("scopeForProject", () => {
  it("names the folder and fingerprints the full path, so same-named checkouts stay apart", () => {
    expect(scopeForProject("/Users/me/code/shop")).toMatch(/^project:shop-[0-9a-f]{8}$/);
    expect(scopeForProject("/Users/me/code/shop")).toBe(scopeForProject("/Users/me/code/shop/"));
    expect(scopeForProject("/Users/me/code/shop")).not.toBe(scopeForProject("/Users/you/code/shop"));
    expect(scopeForProject("C:\\work\\my app")).toMatch(/^project:my_app-[0-9a-f]{8}$/);
    expect(scopeForProject("/")).toMatch(/^project:root-[0-9a-f]{8}$/);
  });
});

describe("touchedFile", () => {
  it("reads file_path from Read, Edit, Write and MultiEdit only", () => {
    for (const tool of ["Read", "Edit", "Write", "MultiEdit"]) expect(touchedFile(tool, { file_path: " /a/b.ts " })).toBe("/a/b.ts");
    expect(touchedFile("Bash", { file_path: "/a/b.ts" })).toBeNull();
    expect(touchedFile("toString", { file_path: "/a/b.ts" })).toBeNull();
  });

  it("ignores inputs the files route would refuse", () => {
    expect(touchedFile("Read", null)).toBeNull();
    expect(touchedFile("Read", { file_path: 42 })).toBeNull();
    expect(touchedFile("Read", { file_path: "  " })).toBeNull();
    expect(touchedFile("Read", { file_path: "/a\u0000b" })).toBeNull();
    expect(touchedFile("Read", { file_path: `/${"x".repeat(1024)}` })).toBeNull();
  });
});

describe("promptContextOutput", () => {
  it("wraps the block in hookSpecificOutput, and adds nothing for an empty block", () => {
    expect(promptContextOutput("## Similar")).toEqual({
      hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "## Similar" },
    });
    expect(promptContextOutput("  \n")).toBeNull();
  });

  it("stays under Claude Code's 10,000-character cut", () => {
    const out = promptContextOutput("x".repeat(20_000))!;
    expect(out.hookSpecificOutput.additionalContext).toHaveLength(MAX_HOOK_CONTEXT_CHARS);
    expect(MAX_HOOK_CONTEXT_CHARS).toBeLessThan(10_000);
  });
});
