import type { Principal } from "../auth/keys";
import type { Services } from "../services";

export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    services: Services;
    principal: Principal;
  };
}
