/** The placement simulation (bench/placement-sim.mjs, issue 48): its invariants on tiny runs. */
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as product from "../../src/core/placement/emptiest";
// @ts-expect-error: plain ESM module, no type declarations
import * as sim from "../../bench/placement-sim.mjs";
// @ts-expect-error: plain ESM module, no type declarations
import { renderPlacement } from "../../bench/support/report-placement.mjs";
// @ts-expect-error: plain ESM module, no type declarations
import { writeReports } from "../../scripts/report.mjs";

const { DAYS_PER_MONTH, POLICY_NAMES, bytesOn, describeTenants, makePolicies, makeTenants, runAll, simulate, simulation, summarise } = sim;
const { D1_LIMIT_BYTES, GROWING_DAYS, NEW_TENANT_FULL_AT, expectedTenantBytes } = product;

interface Tenant {
  id: number;
  finalBytes: number;
  arrivalDay: number;
  growthDays: number;
}
interface Placement {
  tenant: number;
  database: string;
  day: number;
  databaseBytes: number;
  growingTenants: number;
  totalBytes: number;
  tenants: number;
}
interface Run {
  added: number;
  placements: Placement[];
  monthly: { month: number; bytes: number[]; tenants: number }[];
  databases: { name: string; tenants: number[]; bytes: number }[];
}

const limit = D1_LIMIT_BYTES;
const fullAt = NEW_TENANT_FULL_AT;
const small = { tenants: 150, arrivalMonths: 6, growthMonths: [1, 4] };

describe("placement simulation", () => {
  const tenants: Tenant[] = makeTenants({
    seed: 7,
    count: small.tenants,
    arrivalMonths: small.arrivalMonths,
    growthMonths: small.growthMonths,
  });
  const months = small.arrivalMonths + small.growthMonths[1];
  const initial = ["DB", "DB_1"].map((name) => ({ name, bytes: 0 }));
  const total = tenants.reduce((sum, t) => sum + t.finalBytes, 0);
  // A limit small enough that databases fill and are added.
  const tiny = total / 6;
  const run = (policy: string, at = fullAt, lim = limit): Run =>
    simulate({
      tenants,
      choose: makePolicies(product, { limit: lim, fullAt: at, seed: 7 })[policy](),
      initial,
      months,
      limit: lim,
      growingDays: GROWING_DAYS,
    });

  it("places every tenant exactly once, under every policy, and conserves bytes month by month", () => {
    expect(POLICY_NAMES).toEqual(["emptiest", "bytes only", "random <80%", "round-robin <80%"]);
    for (const policy of POLICY_NAMES as string[]) {
      const r = run(policy, fullAt, tiny);
      expect(r.placements.map((p) => p.tenant).sort((a, b) => a - b)).toEqual(tenants.map((t) => t.id).sort((a, b) => a - b));
      const held = r.databases.flatMap((d) => d.tenants);
      expect(new Set(held).size).toBe(tenants.length);
      expect(held).toHaveLength(tenants.length);
      expect(r.databases.length).toBe(initial.length + r.added);
      expect(r.added).toBeGreaterThan(0);
      for (const m of r.monthly) {
        const day = m.month * DAYS_PER_MONTH;
        expect(m.bytes.reduce((a, b) => a + b, 0)).toBe(tenants.reduce((sum, t) => sum + bytesOn(t, day), 0));
      }
      // Every tenant has grown by the last month: the databases hold exactly the final sizes.
      expect(r.databases.reduce((sum, d) => sum + d.bytes, 0)).toBe(total);
    }
  });

  it("feeds the product's call what place.ts reads: growing tenants, tenants so far, and places only below fullAt so counted", () => {
    // Arrivals over 16 months, so tenants placed early stop counting as growing.
    const long: Tenant[] = makeTenants({ seed: 9, count: 200, arrivalMonths: 16, growthMonths: [1, 4] });
    const lim = long.reduce((sum, t) => sum + t.finalBytes, 0) / 6;
    const r: Run = simulate({
      tenants: long,
      choose: makePolicies(product, { limit: lim, fullAt, seed: 9 }).emptiest(),
      initial,
      months: 20,
      limit: lim,
      growingDays: GROWING_DAYS,
    });
    const names = new Set(initial.map((d) => d.name));
    let expired = 0;
    for (const [i, p] of r.placements.entries()) {
      const earlier = r.placements.slice(0, i).filter((q) => q.database === p.database);
      // Tenants placed in that database less than GROWING_DAYS before, counted from the placements themselves.
      expect(p.growingTenants).toBe(earlier.filter((q) => p.day - q.day < GROWING_DAYS).length);
      if (p.growingTenants < earlier.length) expired++;
      expect(p.tenants).toBe(i);
      if (!names.has(p.database)) {
        // A database added for this tenant: it starts empty.
        expect(p.databaseBytes).toBe(0);
        names.add(p.database);
        continue;
      }
      const tenantBytes = expectedTenantBytes([{ name: "all", bytes: p.totalBytes, growingTenants: 0 }], p.tenants);
      expect(p.databaseBytes + p.growingTenants * tenantBytes).toBeLessThan(lim * fullAt);
    }
    expect(names.size).toBe(r.databases.length);
    expect(r.added).toBeGreaterThan(0);
    expect(expired).toBeGreaterThan(0);
  });

  it("keeps away from a database that just took many tenants, where bytes only keeps choosing it", () => {
    // DB holds 20 old tenants (2 GB, none growing); DB_1 is empty. Tenants of 500 MB arrive one a
    // day, growing over 300 days: DB_1's bytes stay far below DB's for the whole month, so by bytes
    // alone every one goes there; counted at the expected tenant (2 GB / 20 tenants, at least the
    // floor), DB_1's growing tenants pass DB's 2 GB after about 20 of them.
    const burst: Tenant[] = Array.from({ length: 30 }, (_, i) => ({ id: i, finalBytes: 5e8, arrivalDay: i, growthDays: 300 }));
    const start = [
      { name: "DB", bytes: 2e9, tenants: 20 },
      { name: "DB_1", bytes: 0 },
    ];
    const place = (policy: string): Run =>
      simulate({
        tenants: burst,
        choose: makePolicies(product, { limit, fullAt, seed: 1 })[policy](),
        initial: start,
        months: 12,
        limit,
        growingDays: GROWING_DAYS,
      });
    const before = place("bytes only");
    expect(before.placements.every((p) => p.database === "DB_1")).toBe(true);
    const now = place("emptiest");
    expect(now.placements[0]!.database).toBe("DB_1");
    const toDb = now.placements.filter((p) => p.database === "DB");
    expect(toDb.length).toBeGreaterThanOrEqual(5);
    for (const p of toDb) {
      // DB_1 had fewer bytes that day: only its growing tenants kept the tenant away.
      const db1 = now.placements.filter((q) => q.database === "DB_1" && q.day < p.day);
      const db1Bytes = db1.reduce((sum, q) => sum + bytesOn(burst[q.tenant]!, p.day), 0);
      expect(db1Bytes).toBeLessThan(p.databaseBytes);
      expect(db1.length).toBeGreaterThanOrEqual(15);
    }
    expect(now.added).toBe(0);
    expect(before.added).toBe(0);
  });

  it("is deterministic for a seed, and another seed draws other tenants", () => {
    const options = { product, limit, fullAt, seed: 3, tenants: 80, arrivalMonths: 3, growthMonths: [1, 2], databases: 2 };
    const a = runAll(options);
    const b = runAll(options);
    expect(b.results).toEqual(a.results);
    expect(b.runs).toEqual(a.runs);
    expect(b.tenants).toEqual(a.tenants);
    expect(runAll({ ...options, seed: 4 }).tenants).not.toEqual(a.tenants);
  });

  it("summarises a run: months, fills, databases over the limit, and the tenants' heavy tail", () => {
    const s = summarise(run("round-robin <80%"), tenants, { limit, fullAt });
    expect(s.months).toHaveLength(months + 1);
    expect(s.overLimit.databases).toBe(0);
    for (const m of s.months) expect(m.max - m.min).toBeCloseTo(m.spread, 3);
    const over = summarise(run("bytes only", fullAt, tiny), tenants, { limit: tiny, fullAt });
    expect(over.overLimit.databases).toBeLessThanOrEqual(over.over90.databases);
    expect(over.overLimit.withLargeTenant).toBeLessThanOrEqual(over.overLimit.databases);
    const d = describeTenants(makeTenants({ seed: 48, count: 2000 }), limit, fullAt);
    // The largest 1 % hold far more than 1 % of the bytes.
    expect(d.top1PercentShare).toBeGreaterThan(0.1);
    expect(d.all.mean).toBeGreaterThan(d.all.median);
  });

  it("renders the report and its chart, and npm run report writes them when the result is there", () => {
    const r = simulation({
      product,
      limit,
      fullAt,
      tenants: 120,
      arrivalMonths: 4,
      growthMonths: [1, 3],
      otherSeeds: 1,
      fullAtSweep: [0.7],
      fasterGrowth: [[0, 0]],
    });
    const saved = JSON.parse(
      JSON.stringify({ name: "placement-sim", at: "2026-12-07T00:00:00.000Z", command: "node bench/placement-sim.mjs", ...r }),
    );
    const { markdown, charts } = renderPlacement(saved, { when: () => "then", machineLine: () => "here" });
    expect(markdown).toContain("do not edit by hand");
    expect(markdown).toContain("Made by `node bench/placement-sim.mjs` on then");
    expect(markdown).toContain("src/core/placement/emptiest.ts");
    for (const name of POLICY_NAMES as string[]) expect(markdown).toContain(`| ${name} | ${r.policies[name].databases} (`);
    const lines = (charts["placement-fill.svg"] as string).match(/<polyline/g) ?? [];
    expect(lines).toHaveLength(r.policies.emptiest.databases + r.policies["bytes only"].databases + POLICY_NAMES.length);

    const results = mkdtempSync(join(tmpdir(), "results-"));
    const out = mkdtempSync(join(tmpdir(), "reports-"));
    writeFileSync(join(results, "placement-sim.json"), JSON.stringify(saved));
    const { written } = writeReports({ resultsDir: results, outDir: out });
    expect(written.map((f: string) => f.split("/").pop())).toEqual(["placement.md", "placement-fill.svg"]);
    expect(readdirSync(out).sort()).toEqual(["placement-fill.svg", "placement.md"]);
  });
});
