import type { Kysely } from 'kysely';
import { definePlugin, type PluginDefinition } from '{{src}}/core/plugin.ts';
import { migrations } from './migrations.ts';
import { ItemsRepo, type ItemsTables } from './repo.ts';

/** {{title}}: its routes are {{namespace}} ({{yaml}}), its table {{table}}. */
const plugin: PluginDefinition<ItemsRepo> = definePlugin({
  name: '{{name}}',
  title: '{{title}}',
  version: '0.1.0',
  description: 'Made by cms-spec new plugin: a list of items anyone can read and an administrator can add to.',
  namespaces: ['{{namespace}}'],
  migrations,
  repo: (db) => new ItemsRepo(db as Kysely<ItemsTables>),
});

export default plugin;
