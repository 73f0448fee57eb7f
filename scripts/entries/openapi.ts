/** Entry bundled by scripts/openapi.mjs: the app's OpenAPI document, built in Node without a Worker. */
import { createApp } from "../../src/app/app";
import { buildOpenApiDocument } from "../../src/http/docs/document";

export const openApiDocument = () => buildOpenApiDocument(createApp());
