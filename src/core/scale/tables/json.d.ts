// Calibration tables are JSON imported by the bundler (wrangler/esbuild and vite both load JSON).
// Typed as unknown on purpose: parseCalibration() checks each table when it is loaded.
declare module "*.json" {
  const table: unknown;
  export default table;
}
