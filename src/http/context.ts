import type { Principal } from "../features/auth/keys";
import type { Logger } from "../platform/observe/log";
import type { IoSummary } from "../platform/observe/io-depth";
import type { Services } from "../platform/ports/services";
import type { ErrorCode } from "./error-codes";

export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    /** The caller's own x-request-id when well-formed: echoed and logged, never used as ours. */
    clientRequestId: string | undefined;
    services: Services;
    principal: Principal;
    /** The request's logger (src/http/access-log.ts), bound to its request id and, after auth, its tenant. */
    log: Logger;
    /** The authenticated tenant (an API key's, or a verified webhook's), for the access log. */
    tenant?: string;
    /** The error envelope's code, for the access log (set by handleError). */
    errorCode?: ErrorCode;
    /** The request's round trips by kind and their sequential depth, for the access log (src/http/io-trace.ts). */
    io?: IoSummary;
    /** The sealing key's read this request started (src/http/bookmark.ts), awaited where a cursor or bookmark needs it. */
    sealingKeyRead?: Promise<void>;
    /** Each timed middleware's own milliseconds when the request asked for them; null when it did not (src/http/middleware/timed.ts). */
    middlewareTimes?: [string, number][] | null;
    /** A signed webhook's body as it was sent, on the webhook routes (src/http/middleware/raw-body.ts). */
    rawBody: string;
  };
}
