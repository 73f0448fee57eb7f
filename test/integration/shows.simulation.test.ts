/**
 * A simulated 3-hour show: 90 analyses, one every 2 minutes (injected clock), each with 8–12
 * candidates from three models, drawn from topic pools of paraphrases (75 % from the segment's
 * topic, which changes every 30 min, 25 % from any topic). Real local embedder, real Durable
 * Object, the real route.
 *
 * A "duplicate" is defined by the pool's ground truth, not by the pipeline's thresholds: a pick
 * is a duplicate when an earlier pick (same analysis included) within the last 30 minutes came
 * from the same pool item (any paraphrase of it). The same show with the memory disabled gives
 * the baseline.
 */
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../src/core/base/clock";
import { newTenant } from "../support/api";
import { expectJson } from "../support/client";
import { showClient } from "../support/shows";

// topic → items → paraphrases of one question
const POOLS: string[][][] = [
  [
    [
      "What evidence supports machine consciousness?",
      "Is there any proof that machines can be conscious?",
      "What would count as evidence that an AI is conscious?",
    ],
    [
      "Should AI systems have legal rights?",
      "Do artificial intelligences deserve rights under the law?",
      "Could an AI ever be granted legal personhood?",
    ],
    ["Will AI replace software engineers?", "Are programmers going to lose their jobs to AI?", "Could AI make human coders unnecessary?"],
    [
      "How do large language models actually work?",
      "What happens inside a language model when it writes text?",
      "Can you explain how an LLM generates its answers?",
    ],
    [
      "Who is responsible when a self-driving car crashes?",
      "If an autonomous car causes an accident, who is to blame?",
      "Who should be liable for crashes of driverless cars?",
    ],
  ],
  [
    [
      "Is nuclear power the answer to climate change?",
      "Should we build more nuclear plants to cut emissions?",
      "Can nuclear energy save us from global warming?",
    ],
    [
      "Why are electric cars still so expensive?",
      "What keeps the price of electric vehicles high?",
      "Why do EVs cost more than petrol cars?",
    ],
    [
      "Can planting trees really offset carbon emissions?",
      "Does reforestation actually cancel out our CO2?",
      "How much carbon can new forests absorb?",
    ],
    ["Should meat be taxed to protect the climate?", "Is a carbon tax on beef a good idea?", "Would taxing meat reduce greenhouse gases?"],
    [
      "How fast are the polar ice caps melting?",
      "At what rate is Arctic ice disappearing?",
      "How quickly is the ice at the poles shrinking?",
    ],
  ],
  [
    [
      "Is a four-day work week good for productivity?",
      "Do people get more done working four days a week?",
      "Would a shorter work week make employees more productive?",
    ],
    ["Will remote work outlast the pandemic?", "Is working from home here to stay?", "Are offices going to come back after remote work?"],
    ["Should the minimum wage be raised?", "Is it time to increase the minimum wage?", "Would a higher minimum wage help workers?"],
    ["How do you negotiate a higher salary?", "What is the best way to ask for a raise?", "How can I get my boss to pay me more?"],
    [
      "Is a university degree still worth the cost?",
      "Does college still pay off financially?",
      "Are degrees worth the student debt today?",
    ],
  ],
  [
    ["Is there life on Mars?", "Could Mars be home to living organisms?", "Have we found signs of life on Mars?"],
    ["When will humans land on Mars?", "How soon could astronauts reach Mars?", "What year will people first walk on Mars?"],
    ["What is dark matter made of?", "What do scientists think dark matter is?", "Which particles could explain dark matter?"],
    [
      "Should we mine asteroids for metals?",
      "Is asteroid mining worth the investment?",
      "Could mining asteroids supply Earth with rare metals?",
    ],
    [
      "How dangerous is space debris for satellites?",
      "Is orbital junk a threat to our satellites?",
      "What risk does space garbage pose to satellites?",
    ],
  ],
  [
    [
      "Does social media harm teenagers' mental health?",
      "Is Instagram bad for the wellbeing of teens?",
      "How does social media affect young people's mental health?",
    ],
    [
      "How much sleep does an adult really need?",
      "What is the ideal number of hours of sleep for adults?",
      "Do grown-ups need eight hours of sleep?",
    ],
    [
      "Is intermittent fasting healthy?",
      "Does skipping meals on a fasting schedule improve health?",
      "What are the health effects of intermittent fasting?",
    ],
    [
      "Can meditation reduce anxiety?",
      "Does mindfulness practice help with anxiety?",
      "Is meditation an effective treatment for stress and worry?",
    ],
    [
      "Should phones be banned in schools?",
      "Would banning smartphones in classrooms help students?",
      "Do schools need to prohibit mobile phones?",
    ],
  ],
  [
    ["Why did the Roman Empire fall?", "What caused the collapse of ancient Rome?", "Which factors brought down the Roman Empire?"],
    ["Who really built the pyramids of Giza?", "How were the Egyptian pyramids constructed?", "What workforce built the great pyramids?"],
    [
      "Was the printing press the most important invention?",
      "Did Gutenberg's press change the world more than anything else?",
      "How did the printing press transform society?",
    ],
    ["What started the First World War?", "Why did World War One break out?", "What were the causes of the Great War?"],
    [
      "How did the Black Death change Europe?",
      "What were the consequences of the plague in medieval Europe?",
      "How did the bubonic plague reshape European society?",
    ],
  ],
];
const MODELS = ["gpt-4o", "claude", "gemini"];
const ANALYSES = 90;
const INTERVAL_MIN = 2;
const MIN = 60_000;

function mulberry32(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const labelOf = new Map<string, string>();
POOLS.forEach((topic, t) => topic.forEach((item, i) => item.forEach((text) => labelOf.set(text, `${t}.${i}`))));

async function runShow(enabled: boolean) {
  const { clientKey } = await newTenant();
  const start = Date.UTC(2025, 9, 19, 10, 0);
  const clock = fixedClock(start);
  const client = showClient(clientKey, clock);
  const show = client.show(enabled ? "sim-memory" : "sim-baseline");
  if (!enabled) await expectJson(show.config({ enabled: false }), 200);
  const random = mulberry32(20251019);
  const picks: { label: string; at: number; novelty: number | null }[] = [];
  let duplicates = 0;
  let warnedDuplicates = 0;
  let candidates = 0;
  let filtered = 0;
  let filteredRepeats = 0;
  for (let a = 0; a < ANALYSES; a++) {
    clock.set(start + a * INTERVAL_MIN * MIN);
    const segment = Math.floor((a * INTERVAL_MIN) / 30) % POOLS.length;
    const count = 8 + Math.floor(random() * 5);
    const batch = Array.from({ length: count }, () => {
      const topic = random() < 0.75 ? segment : Math.floor(random() * POOLS.length);
      const item = POOLS[topic]![Math.floor(random() * POOLS[topic]!.length)]!;
      return {
        text: item[Math.floor(random() * item.length)]!,
        model: MODELS[Math.floor(random() * MODELS.length)]!,
        confidence: Math.round((0.5 + random() * 0.45) * 100) / 100,
      };
    });
    candidates += count;
    const res = await expectJson(show.rank({ candidates: batch, topN: 5 }), 200);
    const now = clock.now();
    const recent = (label: string) => picks.some((p) => p.label === label && now - p.at <= 30 * MIN);
    for (const f of res.filtered) {
      filtered++;
      // A filtered candidate repeats a recent pick, or another candidate of its batch, by the pool's labels.
      if (recent(labelOf.get(f.text)!) || labelOf.get(f.text) === labelOf.get(f.mostSimilarQuestion)) filteredRepeats++;
    }
    for (const pick of res.picks) {
      const label = labelOf.get(pick.text)!;
      if (recent(label)) {
        duplicates++;
        if (pick.warnings.length > 0) warnedDuplicates++;
      }
      picks.push({ label, at: now, novelty: pick.novelty });
    }
  }
  const novelties = picks.flatMap((p) => (p.novelty === null ? [] : [p.novelty]));
  return {
    candidates,
    picks: picks.length,
    duplicates,
    duplicateRate: duplicates / picks.length,
    warnedShare: duplicates ? warnedDuplicates / duplicates : 1,
    filtered,
    filteredPrecision: filtered ? filteredRepeats / filtered : 1,
    averageNovelty: novelties.length ? novelties.reduce((x, y) => x + y, 0) / novelties.length : null,
    status: await expectJson(show.status(), 200),
    embedCalls: client.embedCalls(),
  };
}

// Changed for issue 14, then for issue 30. Until issue 14 this test held memory on to < 10 %
// duplicates (the decision then blocked almost everything on a topic). Issue 14 fitted the repeat
// decision on labelled pairs: 42.3 % of picks repeated a pool item (memory off: 85 %), 99.4 % of
// the 700 filtered candidates were repeats. Issue 30 lets a contrast the same-question decision
// finds (src/core/decisions: a code, an opposite action, a swapped word …) veto the block; three of
// these paraphrase items swap a word ("What is dark matter made of?" / "Which particles could
// explain dark matter?"), so 45.2 % of picks repeat an item, 99.4 % of the 694 filtered are repeats,
// and 61.8 % of the repeats let through carry a warning the producer sees. The label-judged
// simulation (`npm run simulate:show`) is the measure of record; this one stays as an offline check.
describe("a simulated 3-hour show (90 analyses × 8–12 candidates)", () => {
  it(
    "filters almost only repeats, and lets through at most 60 % of the memory-off show's repeat rate, one embedding call per analysis",
    { timeout: 300_000 },
    async () => {
      const withMemory = await runShow(true);
      const baseline = await runShow(false);
      const line = (name: string, r: typeof withMemory) =>
        `${name}: ${r.candidates} candidates, ${r.picks} picks (${(r.picks / ANALYSES).toFixed(2)}/analysis), duplicates ${r.duplicates} = ${(100 * r.duplicateRate).toFixed(1)} %` +
        (r.averageNovelty === null ? "" : `, average novelty ${r.averageNovelty.toFixed(3)}`) +
        `, ${(100 * r.warnedShare).toFixed(1)} % of duplicate picks warned, ${r.filtered} filtered (${(100 * r.filteredPrecision).toFixed(1)} % label-judged repeats)` +
        `, embedding calls ${r.embedCalls}`;
      console.log(`[show simulation] ${line("memory on ", withMemory)}`);
      console.log(`[show simulation] ${line("memory off", baseline)}`);
      console.log(
        `[show simulation] status: ${JSON.stringify({ questionsInMemory: withMemory.status.questionsInMemory, showDurationMinutes: withMemory.status.showDurationMinutes, averageNovelty: withMemory.status.averageNovelty })}`,
      );
      expect(withMemory.embedCalls).toBe(ANALYSES); // one batch call per analysis
      expect(withMemory.filteredPrecision).toBeGreaterThanOrEqual(0.97);
      expect(withMemory.duplicateRate).toBeLessThan(baseline.duplicateRate * 0.6);
      expect(withMemory.warnedShare).toBeGreaterThan(0.5);
      expect(withMemory.averageNovelty!).toBeGreaterThan(0.6);
      expect(withMemory.status.showDurationMinutes).toBe((ANALYSES - 1) * INTERVAL_MIN);
    },
  );
});
