import { describe, expect, it } from "vitest";
import { onTopic, wordRoot } from "../../src/features/shows/topic";

const q = (text: string, topics: string[] = []) => ({ text, topics });

describe("wordRoot", () => {
  it("brings the forms of one word together", () => {
    for (const family of [
      ["consciousness", "conscious", "consciously"],
      ["emotion", "emotions", "emotional", "emotionally"],
      ["tax", "taxes", "taxation"],
      ["robot", "robots", "robotic", "robotics"],
      ["economy", "economies", "economic", "economics", "economist"],
      ["issue", "issues"],
      ["machine", "machines"],
      ["experience", "experiences", "experienced"],
      ["law", "laws"],
    ]) {
      expect(new Set(family.map(wordRoot)), family.join("/")).toHaveProperty("size", 1);
    }
  });

  it("keeps different words apart, where a shared start of 4 letters used to match", () => {
    for (const [a, b] of [
      ["pain", "painting"],
      ["gene", "general"],
      ["car", "care"],
      ["policy", "politics"],
    ] as const) {
      expect(wordRoot(a), `${a} vs ${b}`).not.toBe(wordRoot(b));
    }
  });
});

describe("onTopic", () => {
  // The demo show's three consciousness questions (scripts/demo-seed.mjs) and its other two.
  const consciousness = [
    q("What evidence supports machine consciousness?", ["consciousness"]),
    q("Is consciousness binary or a spectrum?"),
    q("Can we prove AI systems are conscious?"),
  ];
  const others = [
    q("How do emotions differ between humans and language models?", ["emotions"]),
    q("Who should be liable when an autonomous car crashes?"),
  ];

  it("finds every consciousness question of the demo show and nothing else", () => {
    expect(consciousness.map((x) => onTopic(x, "consciousness"))).toEqual([true, true, true]);
    expect(others.map((x) => onTopic(x, "consciousness"))).toEqual([false, false]);
    expect(consciousness.map((x) => onTopic(x, "Conscious"))).toEqual([true, true, true]);
  });

  it("reads forms the old 4-letter prefix rule missed, and the whole text", () => {
    expect(onTopic(q("Could a chatbot act consciously?"), "consciousness")).toBe(true);
    expect(onTopic(q("Is AI-consciousness a research field yet?"), "consciousness")).toBe(true);
    expect(onTopic(q("Should robots pay taxes?"), "tax")).toBe(true);
    const long =
      "Thinking about brains, neurons, chips, qubits, memory, language, vision, planning, learning, reasoning, agency, goals, values, ethics, rights, duties and consciousness, where do we start?";
    expect(onTopic(q(long), "consciousness")).toBe(true);
  });

  it("needs every word of a topic of several words", () => {
    expect(consciousness.map((x) => onTopic(x, "machine consciousness"))).toEqual([true, false, false]);
    expect(onTopic(q("Is painting an art?"), "pain")).toBe(false);
    expect(onTopic(q("What is the general idea?"), "gene")).toBe(false);
    expect(onTopic(q("Anything?"), "the")).toBe(false);
  });

  it("matches explicit topics and Chinese terms", () => {
    expect(onTopic(q("Is it binary?", ["Philosophy of mind"]), "philosophy")).toBe(true);
    expect(onTopic(q("人工智能有没有意识？"), "意识")).toBe(true);
    expect(onTopic(q("人工智能会取代工作吗？"), "意识")).toBe(false);
  });
});
