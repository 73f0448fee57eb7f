/**
 * The floors of src/ (docs/design/architecture.md), checked by `npm run lint`. Each layer imports
 * only itself and the layers below it; features and adapters stand side by side and never import
 * each other (the ports between them live in platform/). workers/ may reach any of them.
 */
const LAYERS = ["core", "platform", ["features", "adapters"], "http", "ui", "app", "client", "cli"];

const rank = new Map(LAYERS.flatMap((layer, index) => [layer].flat().map((name) => [name, index])));
const above = (name) => [...rank].filter(([, index]) => index > rank.get(name)).map(([other]) => other);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...[...rank.keys()]
      .filter((name) => above(name).length > 0)
      .map((name) => ({
        name: `${name}-imports-downwards`,
        comment: `src/${name}/ may not import the layers above it (${above(name).join(", ")}).`,
        severity: "error",
        from: { path: `^src/${name}/` },
        to: { path: `^src/(${above(name).join("|")})/` },
      })),
    {
      name: "features-and-adapters-apart",
      comment: "A feature reaches an adapter through its port (src/platform/ports/), and an adapter knows no feature.",
      severity: "error",
      from: { path: "^src/(features|adapters)/" },
      to: { path: "^src/(features|adapters)/", pathNot: "^src/$1/" },
    },
    {
      name: "core-is-pure",
      comment: "src/core/ is pure: no platform binding, no database, no HTTP framework.",
      severity: "error",
      from: { path: "^src/core/" },
      to: { dependencyTypes: ["npm", "core"], path: "(hono|drizzle-orm|@neondatabase|@modelcontextprotocol|cloudflare:|^node:)" },
    },
    {
      name: "no-loose-files",
      comment: "Every file of src/ belongs to a floor.",
      severity: "error",
      from: { path: "^src/[^/]+$" },
      to: {},
    },
    {
      name: "no-folder-cycles",
      comment: "Two folders that import each other are one folder, or share a third that belongs below both.",
      severity: "error",
      scope: "folder",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-file-cycles",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    includeOnly: "^(src|workers)/",
    exclude: { path: "\\.d\\.ts$" },
  },
};
