// Tenant placement across D1 databases, simulated (issue 48, build step 5 of
// docs/design/tenant-placement.md): many tenants of heavy-tailed sizes, created over time and
// growing after they are placed, put into databases by the product's own policy
// (src/core/placement/emptiest.ts, bundled with esbuild, not copied), by the policy before it
// (bytes in use only) and by two baselines. It shows how many databases the operator adds, which
// go over 90 % and over D1's limit because their tenants grew after placement, and what moving
// tenants would have to fix.
//
//   node bench/placement-sim.mjs   a few seconds; results/placement-sim.json
//   npm run report                 docs/reports/placement.md and placement-fill.svg (with the other reports)
//
// The model. Every assumption, with its source ("assumption" where there is none):
// - Bytes per item at 1024-d (production's bge-m3), the capacity report's run of 2026-12-07
//   (docs/reports/capacity.md, docs/guides/scaling.md): a memory 8,784 B, an FAQ with 3 variants
//   36,950 B, a resolved ticket with its staged item 1,570 B. Everything else a tenant writes is
//   either bounded by the cron's retention (docs/guides/scaling.md) or counted in these items.
// - A database holds at most D1_LIMIT_BYTES (10 GB, D1's limit) and takes no new tenant at or
//   above NEW_TENANT_FULL_AT (80 %), both imported from the policy. The simulation does not stop
//   a database at its limit (D1 would refuse writes): it lets it run over, to measure by how much.
// - Three kinds of tenant (the capacity report's "Tenants per database"), in a mix of 40 % assistant
//   teams, 40 % support desks, 20 % live-show producers (assumption: no usage data yet):
//   * assistant team: users × prompts a person × 8,784 B. The report's team (20 people, 2,500
//     prompts a person after a year) is taken as an established team: users are log-normal with
//     median 5 and σ = 1.1, so 20 people is the 90th percentile; prompts a person log-normal with
//     median 2,500 (the report's figure) and σ = 0.7 (assumption: use per person varies less than
//     team size).
//   * support desk: FAQs × 36,950 B + tickets × 1,570 B, FAQs log-normal with median 500 and
//     tickets with median 5,000, both σ = 1.1, so the report's desk (2,000 FAQs, 20,000 tickets)
//     is the 90th percentile of each (assumption, as for teams).
//   * live-show producer: its questions live in Durable Objects, its D1 rows are one listing row a
//     show (docs/guides/scaling.md: "negligible"): shows log-normal, median 50, σ = 1.0, at 1 KiB a
//     row (assumption: a listing row is well under a 4 KiB page).
// - Why log-normal and not Pareto: a tenant's size is a product of independent factors (people ×
//   prompts each; FAQs and tickets scale with a desk's customers), and a product of independent
//   positive factors tends to log-normal (the central limit theorem on their logarithms). A Pareto
//   with the usual 80/20 exponent (α ≈ 1.16) has an infinite variance: the largest draw, and so the
//   result, would be set by a single tenant and change wholly from seed to seed. The log-normal
//   still gives a heavy tail: the largest 1 % of tenants hold about a fifth of all bytes (each run
//   prints the share; the largest tenant comes to most of a database).
// - Arrivals: DEFAULTS.tenants (3,000) created at uniformly random times over 24 months:
//   a steady rate, no growth of the business (assumption). Months are 30 days; time steps by days.
// - Growth: a tenant is empty when created (which is why the policy looks at databases, not at the
//   tenant) and grows linearly to its final size over a uniformly random 3 to 18 months
//   (assumption; the report's profiles are "after a year of use", the middle of that range), then
//   stays there (no deletes: memories, FAQs and tickets grow until deleted, so this understates
//   late growth). The run lasts 24 + 18 months, so every tenant reaches its final size.
// - Placement sees, as the product does, each database's bytes on the day of creation (D1's
//   meta.size_after), how many tenants it took less than GROWING_DAYS ago (the directory's
//   placed_at), and how many tenants there are in all; nothing about the new tenant. Tenants created
//   the same day see the same bytes, but each sees the tenants placed before it that day.
// - Start with 4 databases (DB, DB_1, DB_2, DB_3) of 10 GB, empty. When the policy's call to
//   `emptiest` returns null (no database below 80 %, counted as that policy counts) the operator
//   adds one, empty, and the tenant goes there. The real operator adds a database by hand after a
//   refused tenant; here it is there the same day.
// - No tenant is ever moved: the figures say what moving would have to fix.
//
// Policies, on the same tenants and seed, all calling the product's `emptiest` (imported, not copied):
// - emptiest: the product's call (src/features/placement/place.ts):
//   `emptiest(states, { tenantBytes: expectedTenantBytes(states, tenants) })`, where a state is a
//   database's bytes today and its count of tenants placed less than GROWING_DAYS ago, and
//   `tenants` counts every tenant placed so far. The operator adds a database when it returns null.
// - bytes only: the product before issue 48's change, the same `emptiest` with every
//   `growingTenants` 0: the database with the fewest bytes below 80 %.
// - random <80%, round-robin <80%: the product's rule for which databases take tenants (a
//   database alone passed to the product's call returns it), choosing among them at random or in
//   turn instead of the one with the most room; the same trigger for adding a database. They tell
//   apart what the 80 % rule with growing tenants does and what choosing the emptiest adds. (The
//   blind baselines of the first version, any database whatever its fill, are gone: placing
//   into databases past 80 % can only overflow sooner, and bytes only already shows that.)
//
// Besides: emptiest and bytes only closing at 50, 60, 70 % (the `fullAt` option), the same tenants
// growing faster (none, 1–3 months), and every policy under 9 more seeds.
import { relative } from "node:path";
import { pathToFileURL } from "node:url";
import { importTs } from "./support/bundle.mjs";
import { prng } from "./support/data.mjs";
import { saveResults } from "./support/stats.mjs";

export const DAYS_PER_MONTH = 30;
/** D1 bytes an item costs at 1024-d (docs/reports/capacity.md, 2026-12-07). */
export const ITEM_BYTES = { memory: 8784, faq: 36950, ticket: 1570, showRow: 1024 };

/** Log-normal counts of each kind of tenant: median and σ of the count's logarithm. See the header for the sources. */
export const PROFILES = [
  {
    key: "assistant",
    name: "assistant team",
    share: 0.4,
    items: (draw) => ({ memory: Math.max(1, Math.round(draw(5, 1.1))) * Math.round(draw(2500, 0.7)) }),
  },
  {
    key: "support",
    name: "support desk",
    share: 0.4,
    items: (draw) => ({ faq: Math.round(draw(500, 1.1)), ticket: Math.round(draw(5000, 1.1)) }),
  },
  { key: "show", name: "live-show producer", share: 0.2, items: (draw) => ({ showRow: Math.round(draw(50, 1.0)) }) },
];

export const DEFAULTS = {
  seed: 48,
  tenants: 3000,
  arrivalMonths: 24,
  growthMonths: [3, 18],
  databases: 4,
};

/** The policies compared, in the order the tables print them. */
export const POLICY_NAMES = ["emptiest", "bytes only", "random <80%", "round-robin <80%"];

/** The policies the sensitivity runs (closing earlier, faster growth) repeat: the product's, now and before. */
export const SENSITIVITY_POLICIES = ["emptiest", "bytes only"];

/** A log-normal draw with the given median and σ (Box–Muller on the seeded uniform `r`). */
export function lognormal(r, median, sigma) {
  const u = 1 - r();
  const v = r();
  return median * Math.exp(sigma * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v));
}

/** Bytes of a tenant's items. */
export const itemBytes = (items) => Object.entries(items).reduce((sum, [kind, n]) => sum + n * ITEM_BYTES[kind], 0);

/**
 * The tenants, sorted by creation day: { id, profile, items, finalBytes, arrivalDay, growthDays }.
 * One seeded stream draws them all, so the same seed gives the same tenants to every policy.
 */
export function makeTenants({
  seed = DEFAULTS.seed,
  count = DEFAULTS.tenants,
  arrivalMonths = DEFAULTS.arrivalMonths,
  growthMonths = DEFAULTS.growthMonths,
} = {}) {
  const r = prng(seed);
  for (let i = 0; i < 8; i++) r(); // xorshift's first outputs follow the seed closely
  const draw = (median, sigma) => lognormal(r, median, sigma);
  const tenants = [];
  for (let i = 0; i < count; i++) {
    let pick = r();
    const profile = PROFILES.find((p) => (pick -= p.share) < 0) ?? PROFILES.at(-1);
    const items = profile.items(draw);
    const [lo, hi] = growthMonths;
    tenants.push({
      id: i,
      profile: profile.key,
      items,
      finalBytes: itemBytes(items),
      arrivalDay: Math.floor(r() * arrivalMonths * DAYS_PER_MONTH),
      growthDays: Math.round((lo + r() * (hi - lo)) * DAYS_PER_MONTH),
    });
  }
  tenants.sort((a, b) => a.arrivalDay - b.arrivalDay || a.id - b.id);
  return tenants;
}

/** A tenant's bytes on `day`: none on the day it is created, then linear up to its final size. */
export function bytesOn(tenant, day) {
  if (day <= tenant.arrivalDay) return 0;
  if (day - tenant.arrivalDay >= tenant.growthDays) return tenant.finalBytes;
  return Math.round((tenant.finalBytes * (day - tenant.arrivalDay)) / tenant.growthDays);
}

/**
 * The policies: (databases, tenants) → a database's name, or null for "add a database", where
 * `databases` is [{ name, bytes, growingTenants }] as the product reads them and `tenants` counts
 * every tenant placed so far. `product`: the exports of src/core/placement/emptiest.ts.
 */
export function makePolicies(product, { limit, fullAt, seed }) {
  const { emptiest, expectedTenantBytes } = product;
  // The product's call (src/features/placement/place.ts), with this run's limit and threshold.
  const options = (databases, tenants) => ({ tenantBytes: expectedTenantBytes(databases, tenants), limit, fullAt });
  const place = (databases, tenants) => emptiest(databases, options(databases, tenants));
  // The databases the product still places in: each one, passed alone to the same call, returns itself.
  const open = (databases, tenants) => {
    const o = options(databases, tenants);
    return databases.filter((d) => emptiest([d], o) !== null);
  };
  const randomFrom = () => {
    const r = prng((seed ^ 0x5eed) >>> 0);
    return (list) => list[Math.floor(r() * list.length)].name;
  };
  const cycle = () => {
    let last = -1; // index, in the list of every database, of the last one chosen
    return (list, all) => {
      const next = list.find((d) => all.indexOf(d) > last) ?? list[0];
      last = all.indexOf(next);
      return next.name;
    };
  };
  return {
    emptiest: () => place,
    // The product before issue 48's change: bytes in use only.
    "bytes only": () => (databases) =>
      emptiest(
        databases.map((d) => ({ ...d, growingTenants: 0 })),
        { limit, fullAt },
      ),
    "random <80%": () => {
      const pick = randomFrom();
      return (databases, tenants) => {
        const list = open(databases, tenants);
        return list.length > 0 ? pick(list) : null;
      };
    },
    "round-robin <80%": () => {
      const pick = cycle();
      return (databases, tenants) => {
        const list = open(databases, tenants);
        return list.length > 0 ? pick(list, databases) : null;
      };
    },
  };
}

/** The name of the n-th database (0: DB, then DB_1, DB_2, …), as wrangler.toml binds them. */
export const databaseName = (n) => (n === 0 ? "DB" : `DB_${n}`);

/**
 * One run of one policy over `tenants`. `initial`: the databases at the start, [{ name, bytes,
 * tenants? }], whose bytes and tenants (outside the simulation, none of them growing) stay as they
 * are. A tenant counts as growing in its database for `growingDays` after its placement. Returns the
 * placements (with what the policy saw of the chosen database), every database's bytes and the
 * tenants placed by the start of each month, and each database's crossings of 90 % and 100 %.
 */
export function simulate({ tenants, choose, initial, months, limit, growingDays }) {
  const databases = initial.map((d) => ({
    name: d.name,
    base: d.bytes,
    bytes: d.bytes,
    addedDay: 0,
    tenants: [],
    growingFrom: 0, // index of the first of `tenants` (in placement order) still growing
  }));
  const byName = new Map(databases.map((d) => [d.name, d]));
  const placements = [];
  const monthly = [];
  const lastDay = months * DAYS_PER_MONTH;
  const outside = initial.reduce((sum, d) => sum + (d.tenants ?? 0), 0);
  let next = 0;
  let added = 0;
  for (let day = 0; day <= lastDay; day++) {
    let total = 0;
    for (const d of databases) {
      d.bytes = d.base;
      for (const t of d.tenants) d.bytes += bytesOn(t, day);
      total += d.bytes;
      if (d.over90 === undefined && d.bytes > 0.9 * limit) d.over90 = day;
      if (d.over100 === undefined && d.bytes > limit) d.over100 = day;
      while (d.growingFrom < d.tenants.length && day - d.tenants[d.growingFrom].arrivalDay >= growingDays) d.growingFrom++;
    }
    if (day % DAYS_PER_MONTH === 0)
      monthly.push({ month: day / DAYS_PER_MONTH, bytes: databases.map((d) => d.bytes), tenants: outside + placements.length });
    for (; next < tenants.length && tenants[next].arrivalDay === day; next++) {
      const tenant = tenants[next];
      const view = databases.map((d) => ({ name: d.name, bytes: d.bytes, growingTenants: d.tenants.length - d.growingFrom }));
      const seen = outside + placements.length;
      let name = choose(view, seen);
      if (name === null) {
        name = databaseName(databases.length);
        const database = { name, base: 0, bytes: 0, addedDay: day, tenants: [], growingFrom: 0 };
        databases.push(database);
        byName.set(name, database);
        added++;
      }
      const database = byName.get(name);
      placements.push({
        tenant: tenant.id,
        database: name,
        day,
        databaseBytes: database.bytes,
        growingTenants: database.tenants.length - database.growingFrom,
        totalBytes: total,
        tenants: seen,
      });
      database.tenants.push(tenant);
    }
  }
  if (next < tenants.length) throw new Error(`${tenants.length - next} tenants arrive after the last day (${lastDay})`);
  return {
    added,
    placements,
    monthly,
    databases: databases.map((d) => ({
      name: d.name,
      addedDay: d.addedDay,
      tenants: d.tenants.map((t) => t.id),
      bytes: d.bytes,
      over90: d.over90 ?? null,
      over100: d.over100 ?? null,
    })),
  };
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? null : s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
};
const r4 = (x) => Math.round(x * 1e4) / 1e4;

/** Balance of the databases' fills (bytes / limit): fullest, emptiest, spread, coefficient of variation. */
export function balance(bytes, limit) {
  const fills = bytes.map((b) => b / limit);
  const m = mean(fills);
  const sd = Math.sqrt(mean(fills.map((f) => (f - m) ** 2)));
  return { max: Math.max(...fills), min: Math.min(...fills), spread: Math.max(...fills) - Math.min(...fills), cv: m > 0 ? sd / m : 0 };
}

/**
 * What a run shows: balance month by month, databases added, databases over 90 % and over the
 * limit (with the tenants in them and how long after their placement it happened), and what
 * moving tenants (largest first) would take to bring every database back to 90 %.
 */
export function summarise(run, tenants, { limit, fullAt }) {
  const byId = new Map(tenants.map((t) => [t.id, t]));
  const months = run.monthly.map((m) => ({
    month: m.month,
    databases: m.bytes.length,
    ...mapValues(balance(m.bytes, limit), r4),
    // Bytes per tenant placed so far: what the product's expectedTenantBytes reads, before its floor.
    bytesPerTenant: m.tenants > 0 ? Math.round(m.bytes.reduce((a, b) => a + b, 0) / m.tenants) : null,
  }));
  // Spread among the databases that were there a month earlier: a database just added is empty,
  // and that alone (the same for every policy) says nothing about where tenants went.
  for (const [i, m] of months.entries()) {
    const older = i > 0 ? run.monthly[i].bytes.slice(0, run.monthly[i - 1].bytes.length) : run.monthly[i].bytes;
    m.spreadSettled = r4(balance(older, limit).spread);
  }
  const over = (key) => run.databases.filter((d) => d[key] !== null);
  const affected = over("over100").flatMap((d) =>
    d.tenants
      .map((id) => byId.get(id))
      .filter((t) => t.arrivalDay < d.over100)
      .map((t) => ({ tenant: t.id, database: d.name, months: (d.over100 - t.arrivalDay) / DAYS_PER_MONTH })),
  );
  // Tenants larger than the room a database keeps when it stops taking new ones: they overflow it alone.
  const large = (d) => d.tenants.some((id) => byId.get(id).finalBytes > (1 - fullAt) * limit);
  const lastPlacement = new Map();
  for (const pl of run.placements) lastPlacement.set(pl.database, pl.day);
  let moves = 0;
  let movedBytes = 0;
  for (const d of run.databases) {
    let excess = d.bytes - 0.9 * limit;
    const largest = d.tenants.map((id) => byId.get(id).finalBytes).sort((a, b) => b - a);
    for (const bytes of largest) {
      if (excess <= 0) break;
      excess -= bytes;
      movedBytes += bytes;
      moves++;
    }
  }
  const last = months.at(-1);
  return {
    databases: run.databases.length,
    added: run.added,
    final: { max: last.max, min: last.min, spread: last.spread, cv: last.cv },
    worst: {
      max: Math.max(...months.map((m) => m.max)),
      spreadSettled: Math.max(...months.map((m) => m.spreadSettled)),
      cv: Math.max(...months.map((m) => m.cv)),
    },
    meanOverMonths: {
      spread: r4(mean(months.map((m) => m.spread))),
      spreadSettled: r4(mean(months.map((m) => m.spreadSettled))),
      cv: r4(mean(months.map((m) => m.cv))),
    },
    over90: { databases: over("over90").length, firstMonth: firstMonth(over("over90"), "over90") },
    overLimit: {
      databases: over("over100").length,
      firstMonth: firstMonth(over("over100"), "over100"),
      tenants: affected.length,
      withLargeTenant: over("over100").filter(large).length,
      warning: spanOf(over("over100"), (d) => d.over100 - d.over90),
      afterClosing: spanOf(over("over100"), (d) => d.over100 - lastPlacement.get(d.name)),
      monthsAfterPlacement: affected.length
        ? {
            min: r4(Math.min(...affected.map((a) => a.months))),
            median: r4(
              quantile(
                affected.map((a) => a.months),
                0.5,
              ),
            ),
          }
        : null,
    },
    toReach90: { moves, bytes: movedBytes },
    utilisation: r4(tenants.reduce((a, t) => a + t.finalBytes, 0) / (run.databases.length * limit)),
    months,
  };
}

/** Min and median, in months, of `days(d)` over `list` (null when empty). */
const spanOf = (list, days) => {
  const xs = list.map((d) => days(d) / DAYS_PER_MONTH);
  return xs.length ? { min: r4(Math.min(...xs)), median: r4(quantile(xs, 0.5)) } : null;
};
const mapValues = (o, f) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));
const firstMonth = (list, key) => (list.length ? r4(Math.min(...list.map((d) => d[key])) / DAYS_PER_MONTH) : null);

/** The tenants' sizes: per profile and in all, and the share of all bytes the largest 1 % hold. */
export function describeTenants(tenants, limit, fullAt) {
  const sizes = (list) => list.map((t) => t.finalBytes);
  const stats = (list) => {
    const s = sizes(list);
    return {
      n: s.length,
      median: quantile(s, 0.5),
      p90: quantile(s, 0.9),
      p99: quantile(s, 0.99),
      max: Math.max(...s),
      mean: Math.round(mean(s)),
    };
  };
  const all = sizes(tenants).sort((a, b) => b - a);
  const total = all.reduce((a, b) => a + b, 0);
  const top = Math.max(1, Math.ceil(all.length / 100));
  return {
    total,
    top1PercentShare: r4(all.slice(0, top).reduce((a, b) => a + b, 0) / total),
    largestShareOfDatabase: r4(all[0] / limit),
    overHeadroom: all.filter((b) => b > (1 - fullAt) * limit).length,
    all: stats(tenants),
    profiles: Object.fromEntries(PROFILES.map((p) => [p.key, stats(tenants.filter((t) => t.profile === p.key))])),
  };
}

/**
 * Every policy on the same tenants: the figures the report prints. `product`: the exports of
 * src/core/placement/emptiest.ts (bench bundles them from src/ with esbuild; a test imports them).
 */
export function runAll({
  product,
  limit,
  fullAt,
  seed = DEFAULTS.seed,
  tenants: count = DEFAULTS.tenants,
  arrivalMonths = DEFAULTS.arrivalMonths,
  growthMonths = DEFAULTS.growthMonths,
  databases = DEFAULTS.databases,
  policies = POLICY_NAMES,
  fullAtSweep = [],
}) {
  const tenants = makeTenants({ seed, count, arrivalMonths, growthMonths });
  const months = arrivalMonths + growthMonths[1];
  const initial = Array.from({ length: databases }, (_, n) => ({ name: databaseName(n), bytes: 0 }));
  const run = (name, at) =>
    simulate({
      tenants,
      choose: makePolicies(product, { limit, fullAt: at, seed })[name](),
      initial,
      months,
      limit,
      growingDays: product.GROWING_DAYS,
    });
  const runs = {};
  const results = {};
  for (const name of policies) {
    runs[name] = run(name, fullAt);
    results[name] = summarise(runs[name], tenants, { limit, fullAt });
  }
  const sweep = fullAtSweep.map((at) => ({
    fullAt: at,
    policies: Object.fromEntries(
      SENSITIVITY_POLICIES.map((name) => {
        const s = summarise(run(name, at), tenants, { limit, fullAt: at });
        return [name, { ...brief(s), utilisation: s.utilisation }];
      }),
    ),
  }));
  return {
    params: {
      seed,
      tenants: count,
      arrivalMonths,
      growthMonths,
      months,
      databases,
      limit,
      fullAt,
      growingDays: product.GROWING_DAYS,
      tenantRoomFloor: product.TENANT_ROOM_FLOOR_BYTES,
      meanTenantBytes: Math.round(mean(tenants.map((t) => t.finalBytes))),
    },
    tenants,
    runs,
    results,
    sweep,
  };
}

/** The fills of every database month by month, for the chart: [month][database] (a database not yet added: absent). */
const fillsByMonth = (run, limit) => run.monthly.map((m) => m.bytes.map((b) => r4(b / limit)));

const pct = (x) => (x === null || x === undefined ? "–" : `${(100 * x).toFixed(0)}%`);
const int = (x) => Math.round(x).toLocaleString("en");
const gb = (x) => `${(x / 1000 ** 3).toFixed(1)} GB`;

/**
 * The whole simulation as results/placement-sim.json holds it: every policy on the default tenants,
 * the product's policy now and before closing earlier and with the same tenants growing faster, and
 * every policy under other seeds. Sizes (tenants, months, seeds) can be made small for a test.
 */
export function simulation({
  product,
  limit,
  fullAt,
  seed = DEFAULTS.seed,
  tenants: count = DEFAULTS.tenants,
  arrivalMonths = DEFAULTS.arrivalMonths,
  growthMonths = DEFAULTS.growthMonths,
  databases = DEFAULTS.databases,
  otherSeeds = 9,
  fullAtSweep = [0.5, 0.6, 0.7],
  fasterGrowth = [
    [0, 0],
    [1, 3],
  ],
}) {
  const options = { product, limit, fullAt, seed, tenants: count, arrivalMonths, growthMonths, databases };
  const main = runAll({ ...options, fullAtSweep });
  // How fast tenants grow after placement decides how far today's bytes mislead: the same tenants grown faster.
  const growth = fasterGrowth.map((faster) => {
    const o = runAll({ ...options, growthMonths: faster, policies: SENSITIVITY_POLICIES });
    return { growthMonths: faster, policies: mapValues(o.results, brief) };
  });
  growth.push({ growthMonths, policies: Object.fromEntries(SENSITIVITY_POLICIES.map((name) => [name, brief(main.results[name])])) });
  // The same model under other seeds: how much of the result is this one draw.
  const all = [main, ...Array.from({ length: otherSeeds }, (_, i) => runAll({ ...options, seed: seed + 1 + i }))];
  const acrossSeeds = Object.fromEntries(
    POLICY_NAMES.map((name) => {
      const range = (f) => {
        const xs = all.map((o) => f(o.results[name]));
        return { min: Math.min(...xs), median: quantile(xs, 0.5), max: Math.max(...xs) };
      };
      return [
        name,
        {
          databases: range((s) => s.databases),
          over90: range((s) => s.over90.databases),
          overLimit: range((s) => s.overLimit.databases),
          worstMax: range((s) => s.worst.max),
          moves: range((s) => s.toReach90.moves),
        },
      ];
    }),
  );
  return {
    params: main.params,
    itemBytes: ITEM_BYTES,
    profiles: PROFILES.map(({ key, name, share }) => ({ key, name, share })),
    tenants: describeTenants(main.tenants, limit, fullAt),
    policyNames: POLICY_NAMES,
    policies: Object.fromEntries(
      POLICY_NAMES.map((name) => [
        name,
        { ...main.results[name], databaseNames: main.runs[name].databases.map((d) => d.name), fills: fillsByMonth(main.runs[name], limit) },
      ]),
    ),
    fullAtSweep: main.sweep,
    growth,
    acrossSeeds: { seeds: all.map((o) => o.params.seed), policies: acrossSeeds },
  };
}

/** The summary table and the lines under it, as the script prints them. */
export function summaryLines(r) {
  const p = r.params;
  const t = r.tenants;
  const out = [
    `${int(p.tenants)} tenants created over ${p.arrivalMonths} months, growing for ${p.growthMonths.join("–")} months; ${p.months} months, seed ${p.seed}. ${gb(t.total)} in all; the largest 1 % hold ${pct(t.top1PercentShare)}; the largest tenant is ${pct(t.largestShareOfDatabase)} of a database; ${t.overHeadroom} tenants are larger than ${pct(1 - p.fullAt)} of one.`,
  ];
  const head = [
    "policy",
    "DBs",
    "added",
    "max fill",
    ">90%",
    ">100% (from month)",
    `of them with a tenant >${pct(1 - p.fullAt)}`,
    "warning 90→100% (months)",
    "moves to 90%",
  ];
  const rows = r.policyNames.map((name) => {
    const s = r.policies[name];
    const w = s.overLimit.warning;
    return [
      name,
      String(s.databases),
      String(s.added),
      pct(s.worst.max),
      String(s.over90.databases),
      `${s.overLimit.databases}${s.overLimit.firstMonth !== null ? ` (${Math.floor(s.overLimit.firstMonth)})` : ""}`,
      String(s.overLimit.withLargeTenant),
      w ? `${w.median.toFixed(1)} (min ${w.min.toFixed(1)})` : "–",
      `${s.toReach90.moves} (${gb(s.toReach90.bytes)})`,
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  out.push(...[head, ...rows].map(line));
  out.push(
    `closing earlier: ${r.fullAtSweep
      .map(
        (s) =>
          `at ${pct(s.fullAt)} ${Object.entries(s.policies)
            .map(([n, x]) => `${n} ${x.overLimit}/${x.databases} over`)
            .join(", ")}`,
      )
      .join("; ")}`,
    `growth after placement: ${r.growth
      .map(
        (g) =>
          `${g.growthMonths.join("–")} months: ${Object.entries(g.policies)
            .map(([n, s]) => `${n} ${s.overLimit}/${s.databases} over`)
            .join(", ")}`,
      )
      .join("; ")}`,
    `across ${r.acrossSeeds.seeds.length} seeds, databases over the limit (min–max): ${r.policyNames
      .map((n) => {
        const s = r.acrossSeeds.policies[n];
        return `${n} ${s.overLimit.min}–${s.overLimit.max} of ${s.databases.min}–${s.databases.max}`;
      })
      .join("; ")}`,
  );
  return out;
}

async function main() {
  const started = performance.now();
  const product = await importTs(new URL("../src/core/placement/emptiest.ts", import.meta.url));
  const results = simulation({ product, limit: product.D1_LIMIT_BYTES, fullAt: product.NEW_TENANT_FULL_AT });
  const seconds = (performance.now() - started) / 1000;
  for (const line of summaryLines(results)) console.log(line);
  const file = saveResults("placement-sim", { seconds: Math.round(seconds * 100) / 100, ...results });
  console.log(`${seconds.toFixed(1)} s; figures in ${relative(process.cwd(), file)}`);
}

/** The few figures a sensitivity line prints. */
const brief = (s) => ({
  databases: s.databases,
  over90: s.over90.databases,
  overLimit: s.overLimit.databases,
  worstMax: s.worst.max,
  moves: s.toReach90.moves,
});

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
