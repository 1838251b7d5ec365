import type { Command } from 'commander';

// SCAFFOLD: `cms-spec seed` arrives with the content work.
export function registerSeedCommand(_program: Command): void {}
