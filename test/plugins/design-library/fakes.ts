import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

/** A request a stand-in received. */
export interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: any;
}

/**
 * Kadence's services as one local server, under prefixes: `/patterns/` (Kadence Cloud's pattern
 * library), `/custom/wp-json/kadence-cloud/v1/` (someone's own Kadence Cloud library, key
 * "CLOUD-KEY"), `/ai/` (the AI content service: jobs that answer 409 while they run, images,
 * verticals, intake, analytics), `/credits/`, `/starter/` (the starter catalogue and help docs),
 * `/base/` (the starter sites: `site1` has posts, menus, widgets and settings; `broken` fails),
 * and `/img/` (photos). Every request is recorded.
 */
export class KadenceServices {
  server!: Server;
  base = '';
  received: Received[] = [];
  /** Polls a job answers 409 to before its content. */
  pollsBeforeDone = 1;
  /** The next content/create answers as an account without credits. */
  noCredits = false;
  /** Jobs whose content the service failed to write (answered 404 when polled). */
  failingJobs = new Set<string>();
  /** The analytics endpoint answers 503. */
  analyticsDown = false;
  private jobs = new Map<string, { context: string; polls: number }>();
  private photo!: Buffer;

  async start(): Promise<void> {
    this.photo = await sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 200, g: 80, b: 40 } } }).jpeg().toBuffer();
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', this.base);
        let body: any = raw;
        try {
          body = raw ? JSON.parse(raw) : null;
        } catch {
          // kept as text
        }
        const r: Received = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body };
        this.received.push(r);
        this.answer(r, res);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): void {
    this.server.close();
  }

  /** How many requests went to a path. */
  hits(path: string): number {
    return this.received.filter((r) => r.path === path).length;
  }

  last(path: string): Received | undefined {
    return this.received.filter((r) => r.path === path).at(-1);
  }

  private answer(r: Received, res: ServerResponse): void {
    const json = (status: number, value: unknown): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    const p = r.path;
    if (p.startsWith('/img/') && p.endsWith('.jpg')) return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(this.photo);
    // the pattern library
    if (p === '/patterns/get/') return json(200, { 'hero-1': { id: 'hero-1', name: 'Hero', categories: { hero: 'Hero' }, key: r.query.get('key') } });
    if (p === '/patterns/pages/') return json(200, { 'home-1': { id: 'home-1', name: 'Home page', key: r.query.get('key') } });
    if (p === '/patterns/categories/') return json(200, { hero: 'Hero', team: 'Team' });
    if (p === '/patterns/pages-categories/') return json(200, { home: 'Home' });
    if (p === '/patterns/single/') {
      if (r.query.get('id') === 'missing') return json(404, { code: 'not_found', message: 'No such pattern' });
      return json(200, { id: r.query.get('id'), content: `<!-- wp:paragraph --><p>Pattern ${r.query.get('id')} (${r.query.get('style') ?? 'light'})</p><!-- /wp:paragraph -->` });
    }
    if (p === '/patterns/broken/get/') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"not json');
    // someone's own Kadence Cloud library
    const cloud = '/custom/wp-json/kadence-cloud/v1/';
    if (p.startsWith(cloud)) {
      if (r.query.get('key') !== 'CLOUD-KEY') return json(200, { error: true, message: 'Invalid access key' });
      const what = p.slice(cloud.length);
      if (what === 'info/') return json(200, { name: 'Acme Cloud', slug: 'acme-cloud', refresh: 'day', expires: '2027-01-01 00:00:00', pages: 'true' });
      if (what === 'get/') return json(200, { 'acme-cta': { id: 'acme-cta', name: 'Acme call to action' } });
      if (what === 'pages/') return json(200, { 'acme-home': { id: 'acme-home', name: 'Acme home' } });
      if (what === 'categories/') return json(200, { cta: 'Call to action' });
      if (what === 'single/') return json(200, { id: r.query.get('id'), content: '<p>Acme</p>' });
      if (what === 'page/') return json(200, { id: r.query.get('page-item'), content: '<p>Acme page</p>' });
    }
    // the AI content service
    if (p === '/ai/content/create') {
      if (this.noCredits) return json(400, { detail: 'Failed, unable to use credits.' });
      const id = `job-${r.body.prompts[0] ?? 'none'}-${this.jobs.size + 1}`;
      this.jobs.set(id, { context: r.body.prompts[0], polls: 0 });
      return json(200, { data: { job_id: id } });
    }
    if (p.startsWith('/ai/content/job/')) {
      const id = decodeURIComponent(p.slice('/ai/content/job/'.length));
      const job = this.jobs.get(id);
      if (!job || this.failingJobs.has(id)) return json(404, { detail: 'Job not found' });
      if (job.polls++ < this.pollsBeforeDone) return json(409, { detail: 'Job is processing' });
      return json(200, { [job.context]: [{ title: `Written for ${job.context}`, text: 'Lorem for Acme Dental' }] });
    }
    if (p === '/ai/images/collections' && r.method === 'GET') return json(200, { data: [{ label: 'Dental', value: 'dental' }] });
    if (p === '/ai/images/collections') return json(200, { data: [{ industry: r.body.industries[0], images: [{ id: 1, url: `${this.base}/img/1.jpg` }] }] });
    if (p === '/ai/images/search') return json(200, { data: [{ query: r.body.query, images: [] }] });
    if (p === '/ai/verticals') return json(200, { Health: ['Dentist', 'Doctor'] });
    if (p === '/ai/proxy/intake/suggest-keywords') return json(200, { keywords: [`${r.body.industry} near ${r.body.location}`] });
    if (p === '/ai/proxy/intake/search-query') return json(200, { query: `${r.body.industry} office` });
    if (p === '/ai/analytics/event') return this.analyticsDown ? json(503, { message: 'down' }) : json(200, { ok: true });
    // the starter services
    if (p === '/starter/get/') return json(200, [{ slug: 'site1', name: 'Dental starter', pages: ['home', 'about'] }]);
    if (p === '/starter/help-docs/') return json(200, [{ title: 'Importing a starter', url: 'https://help.example/import', search: r.query.get('search') }]);
    const base = '/wp-json/kadence-starter-base/v1/';
    if (p === `/base${base}sites`) return json(200, { site1: { name: 'Dental starter' } });
    if (p.startsWith('/base/broken/')) return json(500, { message: 'upstream failed' });
    if (p === `/base/site1${base}posts`) return json(200, [{ title: 'Welcome', content: '<p>Hi</p>' }]);
    if (p === `/base/site1${base}navigation`)
      return json(200, {
        primary: {
          name: 'Main menu',
          items: [
            { id: 11, title: 'Home', menu_order: 1, menu_item_parent: '0' },
            { id: 12, title: 'About', menu_order: 2, menu_item_parent: '0' },
            { id: 13, title: 'Team', menu_order: 3, menu_item_parent: '12', url: 'https://demo.example/team/' },
          ],
        },
      });
    if (p === `/base/site1${base}widgets`) return json(200, { 'sidebar-1': { 'block-3': { content: '<p>Redwood Dental opens at eight</p>' } }, 'footer-1': { 'block-2': { content: '<p>Redwood Dental, since 1990</p>' } } });
    if (p === `/base/site1${base}settings`)
      return json(200, { mods: { accent: '#336699', nav_menu_locations: { primary: 901 } }, wp_css: '.site-title a{color:#336699}', options: { posts_per_page: 7, blogdescription: 'Smiles for everyone', siteurl: 'http://evil.example' } });
    if (p === '/credits/get-remaining') return json(200, r.query.get('key') === 'LICENSE-KEY-123' ? 1500 : 0);
    json(404, { code: 'rest_no_route', message: 'No route' });
  }
}
