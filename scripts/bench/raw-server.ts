/**
 * The physical limit: bare node:http. `static <body> <headers.json>` answers every request with
 * the given bytes and headers (scenario 1). `echo <headers.json>` hand-parses scenario 2's query
 * into the same args, checks them as the spec says, and answers the same JSON. `writer <db>
 * <group|full> <authorization>` is scenario 10's: a POST with that Authorization header and a JSON
 * body gets the post's row inserted into the SQLite site (one transaction: the row, then its
 * guid) and is answered 201 with its id once the commit is durable, either through the same group
 * commit as cms-spec's server (`group`) or with one WAL sync per commit (`full`, synchronous=FULL);
 * `GET /count` answers how many published posts there are. `pg-writer <postgres url>
 * <authorization>` is the same on PostgreSQL (a pool of 10, each create one transaction, answered
 * once committed: PostgreSQL's own WAL flush, as cms-spec's server on it).
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import { GroupCommit } from '../../src/store/group-commit.ts';
import { SyncThread } from '../../src/store/sync-thread.ts';

const [mode, ...files] = process.argv.slice(2);

function send(res: ServerResponse, headers: Record<string, string>, body: Buffer | string): void {
  headers['Content-Length'] = String(Buffer.byteLength(body));
  res.writeHead(200, headers);
  res.end(body);
}

const badRequest = '{"code":"rest_invalid_param","message":"Invalid parameter(s).","data":{"status":400}}';

interface EchoArgs {
  page: number;
  per_page: number;
  flag: boolean;
  order: string;
  ids: number[];
}

const isInt = (s: string) => /^-?\d+$/.test(s);

/** The bench route's args by hand: defaults, then each known key coerced and range-checked. */
function parseEcho(qs: string): EchoArgs | null {
  const a: EchoArgs = { page: 1, per_page: 10, flag: false, order: 'desc', ids: [] };
  for (const pair of qs.split('&')) {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? '' : decodeURIComponent(pair.slice(eq + 1));
    switch (key) {
      case 'page':
        if (!isInt(value) || Number(value) < 1) return null;
        a.page = Number(value);
        break;
      case 'per_page':
        if (!isInt(value) || Number(value) < 1 || Number(value) > 100) return null;
        a.per_page = Number(value);
        break;
      case 'flag':
        if (value !== 'true' && value !== 'false' && value !== '1' && value !== '0') return null;
        a.flag = value === 'true' || value === '1';
        break;
      case 'order':
        if (value !== 'asc' && value !== 'desc') return null;
        a.order = value;
        break;
      case 'ids': {
        const parts = value.split(',');
        if (!parts.every(isInt)) return null;
        a.ids = parts.map(Number);
        break;
      }
    }
  }
  return a;
}

const readHeaders = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;

function staticServer(): Server {
  const body = readFileSync(files[0]);
  const headers = readHeaders(files[1]);
  return createServer((_req, res) => send(res, { ...headers }, body));
}

function echoServer(): Server {
  const headers = readHeaders(files[0]);
  return createServer((req, res) => {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const args = parseEcho(q < 0 ? '' : url.slice(q + 1));
    if (!args) {
      res.writeHead(400, { 'Content-Type': 'application/json; charset=UTF-8' });
      res.end(badRequest);
      return;
    }
    send(res, { ...headers }, JSON.stringify(args));
  });
}

/** 'YYYY-MM-DD HH:MM:SS' in UTC, as the posts table stores dates (the site runs on UTC). */
const sqlNow = () => new Date().toISOString().slice(0, 19).replace('T', ' ');
const slugOf = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

interface NewPost {
  title: string;
  content: string;
  status: string;
}

/**
 * Scenario 10's writer over a store: `GET /count` answers how many published posts there are; a
 * POST with the Authorization header and a JSON body is created, answered 201 with its id once
 * `create` says the row is durable.
 */
function writerOver(authorization: string, create: (p: NewPost) => Promise<number>, count: () => Promise<number>): Server {
  const json = { 'Content-Type': 'application/json; charset=UTF-8' };
  return createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/count') return void count().then((n) => send(res, { ...json }, JSON.stringify(n)));
    if (req.headers.authorization !== authorization) {
      res.writeHead(401, json);
      return res.end('{"code":"rest_not_logged_in","message":"You are not currently logged in.","data":{"status":401}}');
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      let p: { title?: unknown; content?: unknown; status?: unknown };
      try {
        p = JSON.parse(Buffer.concat(chunks).toString());
      } catch {
        res.writeHead(400, json);
        return res.end('{"code":"rest_invalid_json","message":"Invalid JSON body passed.","data":{"status":400}}');
      }
      const id = await create({ title: String(p.title ?? ''), content: String(p.content ?? ''), status: String(p.status ?? 'draft') });
      res.writeHead(201, json);
      res.end(`{"id":${id}}`);
    });
  });
}

function writerServer(): Server {
  const [path, durability, authorization] = files;
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${durability === 'group' ? 'NORMAL' : 'FULL'}`);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const home = (db.prepare(`select value from options where name = 'home'`).get() as { value: string }).value;
  const syncs = new SyncThread();
  const group = durability === 'group' ? new GroupCommit(() => syncs.sync(`${resolve(path)}-wal`)) : undefined;
  const insert = db.prepare(
    `insert into posts (type, status, author, comment_status, ping_status, title, content, parent, slug, date, date_gmt, modified, modified_gmt) values ('post', ?, 1, 'open', 'open', ?, ?, 0, ?, ?, ?, ?, ?) returning id`,
  );
  const setGuid = db.prepare('update posts set guid = ? where id = ?');
  const insertPost = db.transaction((p: NewPost) => {
    const now = sqlNow();
    const { id } = insert.get(p.status, p.title, p.content, slugOf(p.title), now, now, now, now) as { id: number };
    setGuid.run(`${home}/?p=${id}`, id);
    return id;
  });
  const count = db.prepare(`select count(*) as n from posts where type = 'post' and status = 'publish'`);
  return writerOver(
    authorization,
    async (p) => {
      const id = insertPost(p);
      if (group) group.committed();
      await group?.durable();
      return id;
    },
    async () => (count.get() as { n: number }).n,
  );
}

/** Scenario 10 on PostgreSQL: the same row and guid in one transaction, through a pool, answered once committed. */
function pgWriterServer(): Server {
  const [url, authorization] = files;
  const pool = import('pg').then(({ default: pg }) => new pg.Pool({ connectionString: url, max: 10 }));
  const home = pool.then(async (p) => (await p.query<{ value: string }>(`select value from options where name = 'home'`)).rows[0].value);
  const create = async (p: NewPost): Promise<number> => {
    const client = await (await pool).connect();
    try {
      await client.query('begin');
      const now = sqlNow();
      const { rows } = await client.query<{ id: number }>(
        `insert into posts (type, status, author, comment_status, ping_status, title, content, parent, slug, date, date_gmt, modified, modified_gmt) values ('post', $1, 1, 'open', 'open', $2, $3, 0, $4, $5, $5, $5, $5) returning id`,
        [p.status, p.title, p.content, slugOf(p.title), now],
      );
      await client.query('update posts set guid = $1 where id = $2', [`${await home}/?p=${rows[0].id}`, rows[0].id]);
      await client.query('commit');
      return rows[0].id;
    } catch (e) {
      await client.query('rollback');
      throw e;
    } finally {
      client.release();
    }
  };
  const count = async () => Number((await (await pool).query<{ n: string }>(`select count(*) as n from posts where type = 'post' and status = 'publish'`)).rows[0].n);
  return writerOver(authorization, create, count);
}

const SERVERS: Record<string, () => Server> = { static: staticServer, echo: echoServer, writer: writerServer, 'pg-writer': pgWriterServer };
if (!SERVERS[mode]) throw new Error(`unknown mode ${mode}`);
const server = SERVERS[mode]();
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`raw listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`);
});
