/**
 * A clock time ("asked at 10:22", seed 004's warning): the server writes it in UTC, the page's
 * script rewrites it in the reader's own time zone (time[data-local-time]); without the script
 * the UTC time stays, labelled as such.
 */
import type { FC } from "hono/jsx";

const two = (n: number) => String(n).padStart(2, "0");

export function utcClock(at: number): string {
  const d = new Date(at);
  return `${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
}

export const ClockTime: FC<{ at: number }> = ({ at }) => (
  <time datetime={new Date(at).toISOString()} data-local-time="">
    {utcClock(at)}
  </time>
);
