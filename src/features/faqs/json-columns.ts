/** The FAQ tables' JSON columns, parsed by schema where rows leave storage: a value the API did not write fails loudly, not later. */
import { z } from "zod";

export const tagsSchema = z.array(z.string());
export const metadataSchema = z.record(z.string(), z.unknown());
/** A suggestion's distinct sample queries. */
export const samplesSchema = z.array(z.string());
