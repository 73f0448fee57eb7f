import type { Hono } from "hono";
import type { UiEnv } from "./context";

export function deskRoutes(_ui: Hono<UiEnv>) {}
