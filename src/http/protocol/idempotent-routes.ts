/**
 * The creates that take an `Idempotency-Key` (src/http/idempotency.ts is applied to exactly these;
 * test/integration/client.retry.test.ts checks this list against the OpenAPI document). The typed
 * client gives each such request a key when the caller did not, so its retries are safe. Kept free
 * of server imports: the client bundles it.
 */
export const IDEMPOTENT_CREATES: readonly RegExp[] = [
  /^\/v1\/memories\/?$/,
  /^\/v1\/sessions\/[^/]+\/files\/?$/,
  /^\/v1\/faqs\/?$/,
  /^\/v1\/faqs\/import\/?$/,
  /^\/v1\/faqs\/suggestions\/[^/]+\/(?:accept|dismiss)\/?$/,
  /^\/v1\/faqs\/[^/]+\/variants\/?$/,
  /^\/v1\/faqs\/[^/]+\/related\/?$/,
  /^\/v1\/shows\/[^/]+\/questions\/?$/,
  /^\/v1\/shows\/[^/]+\/overrides\/?$/,
  /^\/v1\/staging\/[^/]+\/(?:approve|reject)\/?$/,
];

export const isIdempotentCreate = (method: string, path: string) =>
  method.toUpperCase() === "POST" && IDEMPOTENT_CREATES.some((route) => route.test(path));
