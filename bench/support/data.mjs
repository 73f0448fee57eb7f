// Synthetic but realistic data for the benchmarks: templated engineering/support statements and
// questions over a vocabulary, drawn with a seeded PRNG so every run sees the same data.
export function prng(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const TECH = [
  "Postgres",
  "Redis",
  "Kafka",
  "Terraform",
  "Kubernetes",
  "React",
  "Vue",
  "Rust",
  "Go",
  "Python",
  "Cloudflare Workers",
  "Vercel",
  "Fly.io",
  "S3",
  "DynamoDB",
  "GraphQL",
  "gRPC",
  "Nginx",
  "Sentry",
  "Datadog",
  "Stripe",
  "Auth0",
  "Elasticsearch",
  "SQLite",
  "Docker",
  "GitHub Actions",
  "Celery",
  "RabbitMQ",
  "Next.js",
  "Svelte",
];
const COMPONENT = [
  "billing service",
  "login flow",
  "search page",
  "checkout",
  "notification worker",
  "admin dashboard",
  "mobile API",
  "export job",
  "rate limiter",
  "audit log",
  "image pipeline",
  "webhook handler",
  "onboarding wizard",
  "report generator",
  "session store",
  "feature flags",
  "CI pipeline",
  "staging cluster",
  "data warehouse sync",
  "email templates",
];
const PROJECT = [
  "Atlas",
  "Beacon",
  "Cobalt",
  "Delta",
  "Ember",
  "Falcon",
  "Granite",
  "Harbor",
  "Iris",
  "Juniper",
  "Kestrel",
  "Lumen",
  "Mosaic",
  "Nimbus",
  "Orion",
];
const VERB = ["deploy", "debug", "scale", "monitor", "migrate", "test", "secure", "configure", "profile", "roll back", "cache", "upgrade"];
const ISSUE = [
  "times out",
  "leaks memory",
  "returns 500 errors",
  "is slow on cold starts",
  "drops messages",
  "fails in CI",
  "double-charges customers",
  "loses sessions",
];

const STATEMENTS = [
  (r) => `We decided to use ${pick(r, TECH)} for the ${pick(r, COMPONENT)} of ${pick(r, PROJECT)}`,
  (r) => `The ${pick(r, COMPONENT)} of ${pick(r, PROJECT)} ${pick(r, ISSUE)} when traffic spikes`,
  (r) => `${pick(r, PROJECT)} moved its ${pick(r, COMPONENT)} from ${pick(r, TECH)} to ${pick(r, TECH)} last quarter`,
  (r) => `To ${pick(r, VERB)} the ${pick(r, COMPONENT)}, run the ${pick(r, TECH)} playbook first`,
  (r) => `Ticket ${pick(r, PROJECT).toUpperCase()}-${1000 + Math.floor(r() * 9000)} tracks why the ${pick(r, COMPONENT)} ${pick(r, ISSUE)}`,
];
const QUESTIONS = [
  (r) => `How do I ${pick(r, VERB)} the ${pick(r, COMPONENT)} with ${pick(r, TECH)}?`,
  (r) => `Why does the ${pick(r, COMPONENT)} of ${pick(r, PROJECT)} ${pick(r, ISSUE).replace(/^is /, "stay ")}?`,
  (r) => `What is the best way to ${pick(r, VERB)} ${pick(r, TECH)} in ${pick(r, PROJECT)}?`,
  (r) => `Should we ${pick(r, VERB)} the ${pick(r, COMPONENT)} before the ${pick(r, PROJECT)} launch?`,
];

function pick(r, list) {
  return list[Math.floor(r() * list.length)];
}

const CITIES = ["Austin", "Berlin", "Lisbon", "Osaka", "Toronto", "Nairobi", "Lyon", "Denver", "Porto", "Seoul"];
const COMPANIES = ["Acme Corp", "Globex", "Initech", "Umbrella", "Hooli", "Stark Industries"];
/** Statements that memory cards are extracted from (about 1 in 50 memories). */
const PROFILE = [
  (r) => `I live in ${pick(r, CITIES)} since ${2010 + Math.floor(r() * 15)}`,
  (r) => `I work at ${pick(r, COMPANIES)} on the ${pick(r, COMPONENT)}`,
  (r) => `I'm a ${pick(r, ["backend", "frontend", "platform", "data"])} developer on ${pick(r, PROJECT)}`,
];

/** n distinct memories: ~70% statements (fact/decision/insight; 1 in 50 a profile fact), ~30% questions. */
export function memories(n, seed = 42) {
  const r = prng(seed);
  const seen = new Set();
  const out = [];
  while (out.length < n) {
    const question = r() < 0.3;
    const profile = !question && r() < 0.02;
    const content = (question ? pick(r, QUESTIONS) : profile ? pick(r, PROFILE) : pick(r, STATEMENTS))(r);
    if (seen.has(content)) continue;
    seen.add(content);
    out.push({
      content,
      memoryType: question ? "question" : pick(r, ["fact", "decision", "insight"]),
      importance: Math.round(r() * 10) / 10,
    });
  }
  return out;
}

/** n distinct questions that are not among `exclude` (so their embeddings are not cached). */
export function prompts(n, exclude, seed = 7) {
  const r = prng(seed);
  const taken = new Set(exclude);
  const out = [];
  while (out.length < n) {
    const text = pick(r, QUESTIONS)(r);
    if (taken.has(text)) continue;
    taken.add(text);
    out.push(text);
  }
  return out;
}
