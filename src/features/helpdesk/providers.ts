/** The helpdesk provider modules by route name. */
import type { HelpdeskProvider } from "../../platform/db/schema/helpdesk";
import { freshdesk } from "./freshdesk";
import { front } from "./front";
import { helpscout } from "./helpscout";
import { intercom } from "./intercom";
import { standard } from "./standard";
import type { ProviderModule } from "./types";
import { zendesk } from "./zendesk";

export const providers: Record<HelpdeskProvider, ProviderModule> = { standard, zendesk, intercom, helpscout, freshdesk, front };
