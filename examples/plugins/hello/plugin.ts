import type { Generated, Kysely } from 'kysely';
import { definePlugin, type PluginDefinition } from '../../../src/core/plugin.ts';
import { addIdColumn } from '../../../src/store/portable.ts';

interface NotesTables {
  hello_notes: { id: Generated<number>; text: string };
}

export class NotesRepo {
  constructor(private readonly db: Kysely<NotesTables>) {}
  list() {
    return this.db.selectFrom('hello_notes').selectAll().orderBy('id').execute();
  }
  add(text: string) {
    return this.db.insertInto('hello_notes').values({ text }).returning(['id', 'text']).executeTakeFirstOrThrow();
  }
}

export const hello: PluginDefinition<NotesRepo> = definePlugin({
  name: 'hello',
  title: 'Hello Notes',
  version: '1.0.0',
  description: 'Short notes: listed at hello/v1/notes, written by editors, counted in the footer.',
  namespaces: ['hello/v1'],
  migrations: { '001-notes': { up: (db) => addIdColumn(db.schema.createTable('hello_notes'), db).addColumn('text', 'text', (c) => c.notNull()).execute() } },
  repo: (db) => new NotesRepo(db as Kysely<NotesTables>),
  capabilities: { editor: ['write_notes'], administrator: ['write_notes'] },
  site: { footer: async ({ store }) => `<p class="hello-notes">${(await store.plugin(hello).list()).length} notes</p>` },
  cli: (cli) => cli.command('hello', 'print the notes').action(cli.withSite(async ({ store }) => console.log((await store.plugin(hello).list()).map((n) => n.text).join('\n')))),
});

export default hello;
