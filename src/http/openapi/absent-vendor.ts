/**
 * Stands in for the schema libraries hono-openapi's converters can load but this project does
 * not use (effect, sury, valibot, zod-openapi, zod-to-json-schema): they import them lazily, and
 * the Worker bundle must not refer to packages that are not installed (Miniflare refuses such a
 * bundle). Loading this fails, as a missing package would; only zod is ever converted here.
 */
throw new Error("This schema library is not part of the Recall Worker");
