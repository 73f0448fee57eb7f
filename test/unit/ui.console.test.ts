import { describe, expect, it } from "vitest";
import { parseCandidates } from "../../src/ui/console";
import { noveltyBand } from "../../src/ui/console-views";

describe("parseCandidates", () => {
  it("reads one candidate a line, with an optional 'model |' prefix, skipping blank lines", () => {
    expect(parseCandidates("claude | Can we prove it?\n\n  Why now?  \r\ngemini|Who pays?", "gpt-4o")).toEqual([
      { model: "claude", text: "Can we prove it?" },
      { model: "gpt-4o", text: "Why now?" },
      { model: "gemini", text: "Who pays?" },
    ]);
  });

  it("keeps a bar that cannot be a model prefix in the text", () => {
    expect(parseCandidates("| leading bar?", "m")).toEqual([{ model: "m", text: "| leading bar?" }]);
    const longPrefix = `${"x".repeat(70)} | question?`;
    expect(parseCandidates(longPrefix, "m")).toEqual([{ model: "m", text: longPrefix }]);
  });
});

describe("noveltyBand", () => {
  it("names each band in words as well as a colour class", () => {
    expect(noveltyBand(0.82)).toEqual({ cls: "band-high", words: "Fresh angle!" });
    expect(noveltyBand(0.5)).toEqual({ cls: "band-mid", words: "Some overlap" });
    expect(noveltyBand(0.1)).toEqual({ cls: "band-low", words: "Mostly covered" });
    expect(noveltyBand(null).words).toBe("memory paused");
  });
});
