/**
 * The physical limit: bare node:http. `static <body> <headers.json>` answers every request with
 * the given bytes and headers (scenario 1). `echo <headers.json>` hand-parses scenario 2's query
 * into the same args, checks them as the spec says, and answers the same JSON.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';

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

if (mode !== 'static' && mode !== 'echo') throw new Error(`unknown mode ${mode}`);
const server = mode === 'static' ? staticServer() : echoServer();
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`raw listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`);
});
