import type { Kysely } from 'kysely';
import { definePlugin, type PluginDefinition } from '../../core/plugin.ts';
import { migrations } from './migrations.ts';
import { SnippetsRepo, type SnippetsTables } from './repo.ts';
import { snippetsSiteHooks } from './site.ts';

/**
 * Code Snippets (codesnippetspro/code-snippets): PHP, HTML, CSS and JS snippets in their own table,
 * served at code-snippets/v1 (spec/namespaces/code-snippets.yaml). Active CSS, JS and HTML snippets
 * are emitted into the rendered site; PHP and admin scopes are never executed here.
 */
export const codeSnippets: PluginDefinition<SnippetsRepo> = definePlugin({
  name: 'code-snippets',
  title: 'Code Snippets',
  version: '3.6.2',
  description: 'An easy, clean and simple way to run code snippets on your site.',
  author: 'Code Snippets Pro',
  pluginUri: 'https://codesnippets.pro',
  authorUri: 'https://codesnippets.pro',
  namespaces: ['code-snippets/v1'],
  migrations,
  repo: (db) => new SnippetsRepo(db as Kysely<SnippetsTables>),
  site: snippetsSiteHooks((store) => store.plugin(codeSnippets)),
});

export default codeSnippets;
