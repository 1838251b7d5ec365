import { InvalidArgumentError } from 'commander';

/** A commander parser for a whole number of at least 1; anything else is a one-line usage error. */
export function positiveInt(flag: string) {
  return (v: string): string => {
    if (!/^\d+$/.test(v) || Number(v) < 1) throw new InvalidArgumentError(`${flag} takes a whole number of at least 1, not "${v}"`);
    return v;
  };
}
