import type { DataTypeNode, KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, PrimitiveValueListNode, QueryResult, RootOperationNode, UnknownRow, ValueNode } from 'kysely';
import { kysely } from './kysely.ts';

const WIDER: Record<string, string> = { integer: 'bigint', int4: 'bigint', serial: 'bigserial' };
const NUL = /\u0000/g;

/** A string without NUL characters (PostgreSQL's text cannot hold them); anything else as it is. */
export const storable = (v: unknown) => (typeof v === 'string' && v.includes('\u0000') ? v.replace(NUL, '') : v);

/**
 * What makes PostgreSQL keep what SQLite keeps, so one set of migrations and queries means the
 * same on both: every integer column is 64-bit (SQLite's INTEGER is; PostgreSQL's `integer` is
 * 32-bit and refuses larger values), and the NUL character, which PostgreSQL's text cannot hold,
 * is dropped from text values instead of failing the statement.
 */
class SqliteLikeTransformer extends kysely.OperationNodeTransformer {
  protected override transformDataType(node: DataTypeNode): DataTypeNode {
    const wider = WIDER[node.dataType];
    return wider ? { ...node, dataType: wider as DataTypeNode['dataType'] } : node;
  }

  protected override transformValue(node: ValueNode): ValueNode {
    const value = storable(node.value);
    return value === node.value ? node : { ...node, value };
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return node.values.some((v) => typeof v === 'string' && v.includes('\u0000')) ? { ...node, values: node.values.map(storable) } : node;
  }
}

export class PostgresAsSqlitePlugin implements KyselyPlugin {
  private readonly transformer = new SqliteLikeTransformer();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.transformer.transformNode(args.node, args.queryId);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
