import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';

/** The plugin namespaces each variant's index lists, in the interface's order (its "Two variants" paragraph). */
const INTERFACE = {
  A: ['code-snippets', 'seo', ...'abcdefg'.split('').map((x) => `kb-mail-${x}`), 'kbp', 'kbpp', 'kbp-dynamic', 'kb-lottieanimation', 'kb-vector', 'kb-design-library', 'kb-image-picker', 'kb-custom-svg', 'ktp'],
  B: ['designkit-starter-library', 'seo', ...'abcdefg'.split('').map((x) => `kb-mail-${x}`), 'kbp', 'kb-lottieanimation', 'kb-vector', 'kb-design-library'],
};
const listed = new Set([...INTERFACE.A, ...INTERFACE.B]);

for (const variant of ['A', 'B'] as const) {
  describe(`the Variant ${variant} index`, () => {
    const site = useServer({ variant });
    it('lists the plugin namespaces the interface gives it, in its order', async () => {
      const index = await (await site.call('')).json();
      const plugins = (index.namespaces as string[]).map((ns) => ns.replace(/\/v\d+$/, '')).filter((ns) => listed.has(ns));
      assert.deepEqual(plugins, INTERFACE[variant]);
    });
  });
}
