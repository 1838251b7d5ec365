import type { Generated, Kysely } from 'kysely';

/** The plugin's tables, named with its prefix so they never clash with the core's or another plugin's. */
export interface ItemsTables {
  {{table}}: { id: Generated<number>; title: string };
}

export interface Item {
  id: number;
  title: string;
}

/** The plugin's queries; handlers reach it as `ctx.store.plugin(plugin)`, bound to the request's transaction. */
export class ItemsRepo {
  constructor(private readonly db: Kysely<ItemsTables>) {}

  list(): Promise<Item[]> {
    return this.db.selectFrom('{{table}}').select(['id', 'title']).orderBy('id').execute();
  }

  async add(title: string): Promise<Item> {
    const { id } = await this.db.insertInto('{{table}}').values({ title }).returning('id').executeTakeFirstOrThrow();
    return { id, title };
  }
}
