/** Entry bundled by scripts/openapi.mjs: the app's OpenAPI document, built in Node without a Worker. */
import { createApp } from "../../src/http/app";
import { buildOpenApiDocument } from "../../src/http/openapi/document";

export const openApiDocument = () => buildOpenApiDocument(createApp());
