#!/usr/bin/env node
// Runs the built JavaScript in dist/ when it matches src/ (npm install builds it): no TypeScript
// loader, so start-up takes about half the time. After any edit to src/ it runs the sources
// through tsx instead, so what runs is always what is in src/; `npm run build` makes it fast again.
import { distIsFresh } from '../scripts/build.js';

if (distIsFresh()) {
  await import('../dist/cli/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
