import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, type ServerFixture } from '../../helpers/server.ts';
import { userAuth } from '../../helpers/auth.ts';

type Obj = Record<string, any>;

const NS = 'cms-abilities/v1';
const ROUTES = [`/${NS}`, `/${NS}/categories`, `/${NS}/categories/(?P<slug>[a-z0-9-]+)`, `/${NS}/abilities/(?P<name>[a-zA-Z0-9\\-\\/]+?)/run`, `/${NS}/abilities`, `/${NS}/abilities/(?P<name>[a-zA-Z0-9\\-\\/]+)`];
const CONTENT = ['cms/list-posts', 'cms/create-post', 'cms/get-post', 'cms/update-post', 'cms/list-pages', 'cms/create-page', 'cms/get-page', 'cms/update-page', 'cms/search'];
const PLUGINS_A = ['site-health/test-background-updates', 'site-health/test-loopback-requests', 'block-editor/get-url-details', 'code-snippets/activate-snippet', 'code-snippets/deactivate-snippet'];

const json = async (res: Response) => ({ status: res.status, headers: res.headers, body: (await res.json()) as any });

/** An agent: it knows only the API root and its credentials, and finds everything else by following what the API says. */
class Agent {
  constructor(
    private readonly site: ServerFixture,
    private readonly auth: string,
  ) {}

  async discover(): Promise<Obj[]> {
    const root = await json(await fetch(this.site.api));
    assert.ok(root.body.namespaces.includes(NS));
    const all: Obj[] = [];
    for (let url: string | null = `${this.site.api}${NS}/abilities?per_page=5`; url; ) {
      const page = await json(await fetch(url, { headers: { authorization: this.auth } }));
      assert.equal(page.status, 200);
      all.push(...page.body);
      url = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1] ?? null;
    }
    return all;
  }

  /** Runs an ability at the link it advertises, with the method its annotations call for. */
  async run(ability: Obj, input?: Obj) {
    const href = ability._links['wp:action-run'][0].href as string;
    const { readonly, destructive, idempotent } = ability.meta.annotations;
    if (readonly) {
      const qs = input ? `?${Object.entries(input).map(([k, v]) => `input[${encodeURIComponent(k)}]=${encodeURIComponent(String(v))}`).join('&')}` : '';
      return json(await fetch(href + qs, { headers: { authorization: this.auth } }));
    }
    const method = destructive && idempotent ? 'DELETE' : 'POST';
    return json(await fetch(href, { method, headers: { authorization: this.auth, 'content-type': 'application/json' }, body: JSON.stringify({ input }) }));
  }
}

for (const variant of ['A', 'B'] as const) {
  describe(`cms-abilities/v1 in variant ${variant}`, () => {
    const site = useServer({ variant });

    test('the index lists the namespace with its routes in WordPress’s order, and shows no ability or response declaration', async () => {
      const index = (await (await site.call('')).json()) as Obj;
      assert.ok(index.namespaces.includes(NS));
      assert.deepEqual(Object.keys(index.routes).filter((k) => k.startsWith(`/${NS}`)), ROUTES);
      assert.deepEqual(index.routes[ROUTES[3]].methods, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
      assert.deepEqual(index.routes[ROUTES[3]].endpoints[0].args, {
        name: { description: 'Unique identifier for the ability.', type: 'string', pattern: '^[a-zA-Z0-9\\-\\/]+$', required: false },
        input: { description: 'Input parameters for the ability execution.', type: ['integer', 'number', 'boolean', 'string', 'array', 'object', 'null'], default: null, required: false },
      });
      assert.deepEqual(Object.keys(index.routes[ROUTES[4]].endpoints[0].args), ['context', 'page', 'per_page', 'category']);
      const text = JSON.stringify(index);
      assert.ok(!text.includes('"ability"') && !text.includes('"response"'), 'declarations stay out of the index');
      const ns = await site.call(NS);
      assert.equal(ns.status, 200);
      assert.deepEqual(Object.keys(((await ns.json()) as Obj).routes), ROUTES);
    });

    test('the abilities are those of the endpoints this variant serves', async () => {
      const { body } = await json(await site.call(`${NS}/abilities?per_page=100`, { auth: site.admin }));
      const expected = [...CONTENT, 'cms/get-settings', ...PLUGINS_A.filter((n) => variant === 'A' || !n.startsWith('code-snippets/'))];
      assert.deepEqual(body.map((a: Obj) => a.name), expected);
    });
  });
}

describe('cms-abilities/v1: discovering and running abilities', () => {
  const site = useServer();

  test('reading abilities and categories needs a logged-in user', async () => {
    for (const path of ['abilities', 'abilities/cms/list-posts', 'categories', 'categories/content']) {
      const anonymous = await json(await site.call(`${NS}/${path}`));
      assert.equal(anonymous.status, 401, path);
      assert.equal(anonymous.body.code, 'rest_forbidden');
    }
    const subscriber = await userAuth(site, 'subscriber');
    assert.equal((await site.call(`${NS}/abilities`, { auth: subscriber.auth })).status, 200);
  });

  test('an ability in WordPress’s shape: schemas from the endpoint’s args and declared response, annotations from its method', async () => {
    const { status, body } = await json(await site.call(`${NS}/abilities/cms/update-post`, { auth: site.admin }));
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(body), ['name', 'label', 'description', 'category', 'input_schema', 'output_schema', 'meta', '_links']);
    assert.equal(body.category, 'content');
    assert.deepEqual(body.input_schema.required, ['id']);
    assert.equal(body.input_schema.additionalProperties, false);
    assert.deepEqual(body.input_schema.properties.status, { description: 'A named status for the post.', type: 'string', enum: ['publish', 'future', 'draft', 'pending', 'private'] });
    assert.equal(body.output_schema.properties.id.type, 'integer');
    assert.deepEqual(body.meta, { annotations: { instructions: '', readonly: false, destructive: false, idempotent: false }, show_in_rest: true });
    assert.deepEqual(body._links['wp:action-run'], [{ href: `${site.api}${NS}/abilities/cms/update-post/run` }]);

    const snippet = (await json(await site.call(`${NS}/abilities/code-snippets/activate-snippet`, { auth: site.admin }))).body;
    assert.deepEqual(snippet.input_schema, { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'], additionalProperties: false });
    const list = (await json(await site.call(`${NS}/abilities/cms/list-posts?context=embed`, { auth: site.admin }))).body;
    assert.deepEqual(Object.keys(list), ['name', 'label', 'category', '_links']);
    const badContext = await json(await site.call(`${NS}/abilities/cms/list-posts?context=full`, { auth: site.admin }));
    assert.deepEqual([badContext.status, badContext.body.code, badContext.body.data.params], [400, 'rest_invalid_param', { context: 'context is not one of view, edit, and embed.' }]);
    const missing = await json(await site.call(`${NS}/abilities/cms/no-such-thing`, { auth: site.admin }));
    assert.deepEqual([missing.status, missing.body.code, missing.body.message], [404, 'rest_ability_not_found', 'Ability not found.']);
  });

  test('by category, paged with WordPress’s headers; categories list and answer one by one', async () => {
    const site_ = await json(await site.call(`${NS}/abilities?category=site&per_page=2`, { auth: site.admin }));
    assert.deepEqual(site_.body.map((a: Obj) => a.name), ['cms/get-settings', 'site-health/test-background-updates']);
    assert.equal(site_.headers.get('x-wp-total'), '3');
    assert.equal(site_.headers.get('x-wp-totalpages'), '2');
    assert.match(site_.headers.get('link')!, /abilities\?category=site&per_page=2&page=2>; rel="next"/);
    const categories = await json(await site.call(`${NS}/categories`, { auth: site.admin }));
    assert.deepEqual(categories.body.map((c: Obj) => c.slug), ['content', 'site', 'snippets']);
    const one = await json(await site.call(`${NS}/categories/snippets`, { auth: site.admin }));
    assert.deepEqual(Object.keys(one.body), ['slug', 'label', 'description', 'meta', '_links']);
    assert.deepEqual(one.body._links.abilities, [{ href: `${site.api}${NS}/abilities?category=snippets` }]);
    const none = await json(await site.call(`${NS}/categories/widgets`, { auth: site.admin }));
    assert.deepEqual([none.status, none.body.code], [404, 'rest_ability_category_not_found']);
  });

  test('an agent discovers the abilities and runs them end to end: create a post, find it, update it, activate a snippet', async () => {
    const agent = new Agent(site, site.admin);
    const abilities = new Map((await agent.discover()).map((a) => [a.name, a]));
    assert.ok(abilities.size >= 15);

    const created = await agent.run(abilities.get('cms/create-post')!, { title: 'Written by an agent', content: 'Tea and biscuits.', status: 'publish' });
    assert.equal(created.status, 200);
    assert.equal(created.body.title.raw, 'Written by an agent');
    const id = created.body.id as number;

    const found = await agent.run(abilities.get('cms/search')!, { search: 'biscuits' });
    assert.deepEqual(found.body.map((r: Obj) => r.id), [id]);
    const listed = await agent.run(abilities.get('cms/list-posts')!, { per_page: 1 });
    assert.deepEqual(listed.body.map((p: Obj) => p.id), [id]);

    const updated = await agent.run(abilities.get('cms/update-post')!, { id, title: 'Edited by an agent' });
    assert.equal(updated.status, 200);
    const got = await agent.run(abilities.get('cms/get-post')!, { id });
    assert.equal(got.body.title.rendered, 'Edited by an agent');
    const settings = await agent.run(abilities.get('cms/get-settings')!);
    assert.equal(settings.body.title, 'cms-spec');
    const page = await agent.run(abilities.get('cms/create-page')!, { title: 'About the agent', status: 'publish' });
    assert.equal((await agent.run(abilities.get('cms/get-page')!, { id: page.body.id })).body.type, 'page');

    const snippet = (await json(await site.call('code-snippets/v1/snippets', { json: { name: 'agent css', scope: 'site-css', code: '.agent { color: teal; }' }, auth: site.admin }))).body;
    const activated = await agent.run(abilities.get('code-snippets/activate-snippet')!, { id: snippet.id });
    assert.deepEqual([activated.status, activated.body.active], [200, true]);
    assert.ok((await (await fetch(`${site.home}/`)).text()).includes('.agent { color: teal; }'), 'the activated snippet reaches the site');
  });

  test('bad input answers the validation error of the ability’s schema; nothing is written', async () => {
    const run = (name: string, body: unknown) => site.call(`${NS}/abilities/${name}/run`, { json: body, auth: site.admin });
    const before = (await site.app.store.posts.query({ types: ['post'], offset: 0, limit: 0 })).total;
    const bad = await json(await run('cms/create-post', { input: { title: 'x', status: 'bogus' } }));
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, { code: 'ability_invalid_input', message: 'Ability "cms/create-post" has invalid input. Reason: input[status] is not one of publish, future, draft, pending, and private.', data: { status: 400 } });
    const extra = await json(await run('cms/create-post', { input: { title: 'x', colour: 'red' } }));
    assert.equal(extra.body.message, 'Ability "cms/create-post" has invalid input. Reason: colour is not a valid property of Object.');
    const noId = await json(await run('cms/update-post', { input: { title: 'x' } }));
    assert.equal(noId.body.message, 'Ability "cms/update-post" has invalid input. Reason: id is a required property of input.');
    const notObject = await json(await run('cms/update-post', {}));
    assert.equal(notObject.body.message, 'Ability "cms/update-post" has invalid input. Reason: input is not of type object.');
    const wrongType = await json(await site.call(`${NS}/abilities/cms/list-posts/run?input[per_page]=lots`, { auth: site.admin }));
    assert.equal(wrongType.body.message, 'Ability "cms/list-posts" has invalid input. Reason: input[per_page] is not of type integer.');
    assert.equal((await site.app.store.posts.query({ types: ['post'], offset: 0, limit: 0 })).total, before);
  });

  test('the run is checked as WordPress checks it: the method for the ability, then the caller’s permission; the endpoint’s own checks still apply', async () => {
    const wrongMethod = await json(await site.call(`${NS}/abilities/cms/list-posts/run`, { json: { input: {} }, auth: site.admin }));
    assert.deepEqual([wrongMethod.status, wrongMethod.body.message], [405, 'Read-only abilities require GET method.']);
    const wrongMethod2 = await json(await site.call(`${NS}/abilities/cms/create-post/run`, { auth: site.admin }));
    assert.deepEqual([wrongMethod2.status, wrongMethod2.body.message], [405, 'Abilities that perform updates require POST method.']);

    const subscriber = await userAuth(site, 'subscriber');
    const refused = await json(await site.call(`${NS}/abilities/cms/create-post/run`, { json: { input: { title: 'nope' } }, auth: subscriber.auth }));
    assert.deepEqual(refused.body, { code: 'rest_ability_cannot_execute', message: 'Sorry, you are not allowed to execute this ability.', data: { status: 403 } });
    const anonymous = await json(await site.call(`${NS}/abilities/cms/get-settings/run`));
    assert.equal(anonymous.status, 401);

    // an author may run update-post (edit_posts), but the endpoint refuses someone else's post
    const author = await userAuth(site, 'author');
    const post = (await json(await site.call('cms/v2/posts', { json: { title: 'The admin’s', status: 'publish' }, auth: site.admin }))).body;
    const theirs = await json(await site.call(`${NS}/abilities/cms/update-post/run`, { json: { input: { id: post.id, title: 'mine now' } }, auth: author.auth }));
    assert.deepEqual([theirs.status, theirs.body.code], [403, 'rest_cannot_edit']);
    const gone = await json(await site.call(`${NS}/abilities/cms/get-post/run?input[id]=999999`, { auth: site.admin }));
    assert.deepEqual([gone.status, gone.body.code], [404, 'rest_post_invalid_id']);
  });

  test('deactivating a plugin takes its abilities away; activating brings them back', async () => {
    const names = async () => ((await json(await site.call(`${NS}/abilities?per_page=100`, { auth: site.admin }))).body as Obj[]).map((a) => a.name);
    assert.equal((await site.call('cms/v2/plugins/code-snippets/code-snippets', { method: 'POST', json: { status: 'inactive' }, auth: site.admin })).status, 200);
    try {
      assert.ok(!(await names()).some((n) => n.startsWith('code-snippets/')));
      assert.equal((await json(await site.call(`${NS}/abilities/code-snippets/activate-snippet/run`, { json: { input: { id: 1 } }, auth: site.admin }))).status, 404);
      assert.ok(!((await json(await site.call(`${NS}/categories`, { auth: site.admin }))).body as Obj[]).some((c) => c.slug === 'snippets'));
    } finally {
      await site.call('cms/v2/plugins/code-snippets/code-snippets', { method: 'POST', json: { status: 'active' }, auth: site.admin });
    }
    assert.ok((await names()).includes('code-snippets/activate-snippet'));
  });
});
