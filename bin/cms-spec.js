#!/usr/bin/env node
// The CLI is TypeScript run through tsx's loader, so no build step stands between a clone and `npx cms-spec`.
import { register } from 'tsx/esm/api';
register();
await import('../src/cli/main.ts');
