// What `npm run pii` measures: the ticket cleaning as shipped (bundled with esbuild).
export { cleanTicket } from "../../src/core/text/ticket-clean";
