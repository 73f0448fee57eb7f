/**
 * Stands in for the schema libraries hono-openapi's converters can load but this project does
 * not use (effect, sury, valibot, zod-openapi): they import them lazily, and the Worker bundle
 * must not refer to packages that are not installed (Miniflare refuses such a bundle).
 * zod-to-json-schema is installed (the MCP SDK needs it), so it is not aliased. Loading this fails, as a missing package would; only zod is ever converted here.
 */
throw new Error("This schema library is not part of the Recall Worker");
