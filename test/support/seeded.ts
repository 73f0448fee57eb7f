/** `n` numbers in [-0.5, 0.5) from a linear congruential generator: the same vectors every run, for any seed. */
export function seededNumbers(n: number, seed: number): number[] {
  let x = seed;
  return Array.from({ length: n }, () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31 - 0.5;
  });
}
