import { describe, expect, it } from "vitest";
import { placeUrl, rankingIdOf } from "../../src/ui/console-back";
import { candidatesOf, rankErrors } from "../../src/ui/console-rank-form";
import { noveltyBand } from "../../src/ui/console-results";

describe("candidatesOf", () => {
  it("sends the non-empty rows with their own model and confidence, and remembers each one's row", () => {
    const values = {
      "text-1": "  Can we prove it?  ",
      "model-1": "claude",
      "confidence-1": "0.9",
      "text-2": "",
      "confidence-2": "0.5",
      "text-3": "Why now?",
      "model-3": " ",
      "confidence-3": "",
      "text-4": "Who pays?",
      "confidence-4": "high",
    };
    expect(candidatesOf(values, "gpt-4o")).toEqual({
      candidates: [
        { text: "Can we prove it?", model: "claude", confidence: 0.9 },
        // An empty confidence is left to the API's default (0.5); an empty model takes the default model.
        { text: "Why now?", model: "gpt-4o" },
        // Text that is not a number goes as typed, so the API's schema names the problem.
        { text: "Who pays?", model: "gpt-4o", confidence: "high" },
      ],
      rows: [1, 3, 4],
    });
  });
});

describe("rankErrors", () => {
  it("puts the API's message beside the row it is about, not the candidate's index", () => {
    expect(
      rankErrors(
        [
          { path: "candidates.1.confidence", message: "Too big: expected number to be <=1" },
          { path: "candidates.0.text", message: "Too big" },
          { path: "topN", message: "Too small" },
        ],
        [2, 5],
      ),
    ).toEqual({
      "row-5": "Question 5, confidence: Too big: expected number to be <=1",
      "row-2": "Question 2: Too big",
      topN: "Too small",
    });
  });

  it("asks for a question when every row was empty", () => {
    expect(rankErrors([{ path: "candidates", message: "Too small: expected array to have >=1 items" }], [])).toEqual({
      form: "Type at least one question.",
    });
  });
});

describe("where a console action returns to", () => {
  it("is the ranking's cards (with the history period) or the console, never a URL from the form", () => {
    expect(placeUrl({ showId: "s1", rankingId: "rk_abc", minutes: 60 })).toBe("/ui/shows/s1/rankings/rk_abc?minutes=60#results");
    expect(placeUrl({ showId: "s1", rankingId: null, minutes: 30 })).toBe("/ui/shows/s1");
    expect(rankingIdOf("rk_abc")).toBe("rk_abc");
    expect(rankingIdOf("https://evil.example/")).toBeNull();
    expect(rankingIdOf("../../x")).toBeNull();
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
