import type { ColumnMetadata, DatabaseIntrospector, DatabaseMetadata, DatabaseMetadataOptions, Kysely, SchemaMetadata, TableMetadata } from 'kysely';
import { sql } from './kysely.ts';

/** kysely's own bookkeeping tables, which its migrator asks for and other callers do not. */
const KYSELY_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

interface ColumnRow {
  table: string;
  kind: string;
  column: string;
  type: string;
  type_schema: string;
  not_null: boolean;
  has_default: boolean;
  auto_incrementing: boolean;
}

/**
 * kysely's introspection on PostgreSQL, seeing only the site's schema (the first of its
 * search_path). kysely's own introspector reads every schema of the database, asking
 * has_schema_privilege of each by name: where several sites share a database, one dropping its
 * schema meanwhile fails that read (and kysely's migrator makes it on every start); it also grows
 * with every schema there is. A site never needs another schema's tables.
 */
export class SiteSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<any>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select current_schema() as name`.execute(this.db);
    return rows.filter((r) => r.name !== null);
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow>`
      select c.relname as table, c.relkind as kind, a.attname as column, t.typname as type, tns.nspname as type_schema,
             a.attnotnull as not_null, a.atthasdef as has_default,
             (a.attidentity <> '' or pg_get_serial_sequence(quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname) is not null) as auto_incrementing
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      join pg_catalog.pg_attribute a on a.attrelid = c.oid
      join pg_catalog.pg_type t on t.oid = a.atttypid
      join pg_catalog.pg_namespace tns on tns.oid = t.typnamespace
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p') and a.attnum > 0 and not a.attisdropped
      order by c.relname, a.attnum`.execute(this.db);
    const schema = (await this.getSchemas())[0]?.name;
    const tables = new Map<string, { name: string; isView: boolean; schema?: string; columns: ColumnMetadata[] }>();
    for (const r of rows) {
      if (!options.withInternalKyselyTables && KYSELY_TABLES.has(r.table)) continue;
      let table = tables.get(r.table);
      if (!table) tables.set(r.table, (table = { name: r.table, isView: r.kind === 'v', schema, columns: [] }));
      table.columns.push({ name: r.column, dataType: r.type, dataTypeSchema: r.type_schema, isNullable: !r.not_null, hasDefaultValue: r.has_default, isAutoIncrementing: r.auto_incrementing });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}
