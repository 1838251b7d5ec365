import type { Generated } from 'kysely';

/** Tables of the site's database. Each store module owns the tables it reads and writes. */
export interface OptionsTable {
  name: string;
  value: string;
  autoload: Generated<number>;
}

export interface DB {
  options: OptionsTable;
}
