import type { Principal } from "../auth/keys";
import type { Services } from "../services";

export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    /** The caller's own x-request-id when well-formed: echoed and logged, never used as ours. */
    clientRequestId: string | undefined;
    services: Services;
    principal: Principal;
  };
}
