import type { Command } from 'commander';

// SCAFFOLD: `cms-spec user ...` and `cms-spec app-password ...` arrive with the authentication work.
export function registerUserCommands(_program: Command): void {}
