/**
 * The domain's one result shape for an outcome the caller must decide on (not found, a conflict,
 * a refused input): `{ ok: true, value }` or `{ ok: false, error }`, the error a tagged reason the
 * caller maps to its own answer (an HTTP code, a log line). Unexpected failures still throw.
 */
export type Result<T, E> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

export const ok = <T>(value: T): { readonly ok: true; readonly value: T } => ({ ok: true, value });
export const err = <E>(error: E): { readonly ok: false; readonly error: E } => ({ ok: false, error });
