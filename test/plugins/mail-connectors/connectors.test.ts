import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../../helpers/server.ts';
import { mailConnectors } from '../../../src/plugins/mail-connectors/plugin.ts';
import { userAuth } from '../../helpers/auth.ts';
import { baseUrlOf, FAKE_APIS, FakeProvider, keyFor, type KeyKind, type ProviderId } from './fakes.ts';
import { answered, configure, getConnector, NAMESPACES, setOutboundEnv, type ErrorBody } from './helpers.ts';

const TIMEOUT_MS = 1500;
const restoreEnv = setOutboundEnv({ CMS_SPEC_OUTBOUND_ALLOW: '127.0.0.1', CMS_SPEC_OUTBOUND_TIMEOUT_MS: String(TIMEOUT_MS) });
after(restoreEnv);

const IDS = Object.keys(FAKE_APIS) as ProviderId[];
/** The providers whose namespace takes `apikey`; the others only ever use the stored key. */
const PER_REQUEST = new Set<ProviderId>(['mailchimp', 'brevo', 'mailerlite']);
const TITLES: Record<ProviderId, string> = { mailchimp: 'Mailchimp', convertkit: 'ConvertKit', fluentcrm: 'FluentCRM', brevo: 'Brevo', activecampaign: 'ActiveCampaign', mailerlite: 'MailerLite', getresponse: 'GetResponse' };
/** The endpoint each provider's common tests read. */
const LIST: Record<ProviderId, string> = { mailchimp: 'lists', convertkit: 'forms', fluentcrm: 'lists', brevo: 'contacts/lists', activecampaign: 'lists', mailerlite: 'groups', getresponse: 'campaigns' };

const fakes = {} as Record<ProviderId, FakeProvider>;
/** Every key handed to the site, to be looked for in everything it answered and logged. */
const keys: string[] = [];
const key = (id: ProviderId, kind: KeyKind, o?: { classic?: boolean }) => {
  const k = keyFor(id, kind, o);
  keys.push(k);
  return k;
};

describe('the mail connectors against stand-ins of the providers’ APIs', () => {
  const server = useServer({}, async (s) => {
    for (const id of IDS) {
      fakes[id] = await new FakeProvider(FAKE_APIS[id]).start();
      await configure(s, id, { baseUrl: baseUrlOf(id, fakes[id]) });
    }
  });
  after(async () => {
    for (const fake of Object.values(fakes)) await fake.stop();
  });

  /** GET {ns}/get with `key` where the provider takes it: in `apikey`, or stored first. */
  async function ask<T = unknown>(id: ProviderId, k: string, params: Record<string, string | string[]>, auth = server.admin) {
    if (PER_REQUEST.has(id)) return getConnector<T>(server, NAMESPACES[id], { ...params, apikey: k }, auth);
    await configure(server, id, { key: k });
    return getConnector<T>(server, NAMESPACES[id], params, auth);
  }

  describe('Mailchimp (kb-mail-a/v1)', () => {
    test('reads lists at the key’s data centre with Basic auth, page/per_page as count/offset, total in X-WP-Total', async () => {
      const k = key('mailchimp', 'valid');
      const res = await ask<{ lists: { name: string }[]; total_items: number }>('mailchimp', k, { endpoint: 'lists', page: '2', per_page: '5' });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.lists.map((l) => l.name), ['List 6', 'List 7', 'List 8', 'List 9', 'List 10']);
      assert.equal(res.body.total_items, 12, 'the provider’s answer is passed through');
      assert.equal(res.headers.get('x-wp-total'), '12');
      assert.equal(res.headers.get('x-wp-totalpages'), '3');
      const seen = fakes.mailchimp.last;
      assert.equal(seen.path, '/us21/3.0/lists');
      assert.equal(seen.headers.authorization, `Basic ${Buffer.from(`user:${k}`).toString('base64')}`);
      assert.equal(seen.query.get('count'), '5');
      assert.equal(seen.query.get('offset'), '5');
      assert.ok(!seen.query.has('page') && !seen.query.has('per_page') && !seen.query.has('apikey'));
    });

    test('queryargs go to Mailchimp as they are and win over the mapped paging', async () => {
      const res = await ask<{ lists: unknown[] }>('mailchimp', key('mailchimp', 'valid'), { endpoint: 'lists/', queryargs: ['count=100', 'fields=lists.id,lists.name'] });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.lists.length, 12);
      assert.equal(fakes.mailchimp.last.path, '/us21/3.0/lists', 'a trailing slash is the same endpoint');
      assert.equal(fakes.mailchimp.last.query.get('count'), '100');
      assert.equal(fakes.mailchimp.last.query.get('fields'), 'lists.id,lists.name');
    });

    test('search is the tag search’s name; interest categories with a trailing slash answer the interest groups', async () => {
      const tags = await ask<{ tags: { name: string }[] }>('mailchimp', key('mailchimp', 'valid'), { endpoint: 'lists/list1/tag-search/', search: 'VIP' });
      assert.equal(tags.status, 200, tags.text);
      assert.deepEqual(tags.body.tags.map((t) => t.name), ['vip', 'vip-gold']);
      assert.equal(fakes.mailchimp.last.query.get('name'), 'VIP');

      const groups = await ask('mailchimp', key('mailchimp', 'valid'), { endpoint: 'lists/list1/interest-categories/' });
      assert.equal(groups.status, 200, groups.text);
      assert.deepEqual(groups.body, [
        { id: 'red', title: 'Colour - Red' },
        { id: 'blue', title: 'Colour - Blue' },
        { id: 'big', title: 'Size - Big' },
      ]);
      assert.equal(fakes.mailchimp.last.path, '/us21/3.0/lists/list1/interest-categories/cat2/interests');
      assert.equal(fakes.mailchimp.last.query.get('count'), '100');
      const categories = await ask<{ categories: unknown[] }>('mailchimp', key('mailchimp', 'valid'), { endpoint: 'lists/list1/interest-categories' });
      assert.equal(categories.body.categories.length, 2, 'without the slash: the categories as Mailchimp gives them');
    });

    test('a search Mailchimp cannot do, and a key without a data centre, are refused before any call', async () => {
      const before = fakes.mailchimp.seen.length;
      const search = await ask<ErrorBody>('mailchimp', key('mailchimp', 'valid'), { endpoint: 'lists', search: 'news' });
      assert.equal(search.status, 400);
      assert.equal(search.body.code, 'kb_mail_search_unsupported');
      const noDc = await getConnector<ErrorBody>(server, NAMESPACES.mailchimp, { endpoint: 'lists', apikey: 'valid-0123456789abcdef' }, server.admin);
      assert.equal(noDc.status, 400);
      assert.equal(noDc.body.code, 'kb_mail_invalid_key');
      assert.match(noDc.body.message, /ends in its data centre/);
      assert.equal(fakes.mailchimp.seen.length, before);
    });

    test('without `apikey` the stored key is used', async () => {
      const stored = key('mailchimp', 'valid');
      await configure(server, 'mailchimp', { key: stored });
      const res = await getConnector(server, NAMESPACES.mailchimp, { endpoint: 'lists' }, server.admin);
      assert.equal(res.status, 200, res.text);
      assert.equal(fakes.mailchimp.last.headers.authorization, `Basic ${Buffer.from(`user:${stored}`).toString('base64')}`);
      await configure(server, 'mailchimp', { key: '' });
    });
  });

  describe('ConvertKit (kb-mail-b/v1)', () => {
    test('reads forms and sequences with the stored key as api_key; they come whole', async () => {
      const k = key('convertkit', 'valid');
      const forms = await ask<{ forms: { name: string }[] }>('convertkit', k, { endpoint: 'forms' });
      assert.equal(forms.status, 200, forms.text);
      assert.deepEqual(forms.body.forms.map((f) => f.name), ['Form 1', 'Form 2', 'Form 3']);
      assert.equal(forms.headers.get('x-wp-total'), '3');
      assert.equal(forms.headers.get('x-wp-totalpages'), '1');
      assert.equal(fakes.convertkit.last.path, '/v3/forms');
      assert.equal(fakes.convertkit.last.query.get('api_key'), k);
      assert.ok(!fakes.convertkit.last.query.has('page') && !fakes.convertkit.last.query.has('per_page'), 'v3 does not page these lists');
      const sequences = await getConnector<{ courses: unknown[] }>(server, NAMESPACES.convertkit, { endpoint: 'sequences' }, server.admin);
      assert.equal(sequences.body.courses.length, 2);
    });

    test('`apikey` and `queryargs`, which this namespace does not declare, change nothing', async () => {
      const stored = key('convertkit', 'valid');
      await configure(server, 'convertkit', { key: stored });
      const res = await getConnector(server, NAMESPACES.convertkit, { endpoint: 'tags', apikey: key('convertkit', 'wrong'), queryargs: ['api_key=other', 'extra=1'] }, server.admin);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual([...fakes.convertkit.last.query], [['api_key', stored]]);
    });

    test('page 2 of a list that comes whole is a 400, not the same list again', async () => {
      await configure(server, 'convertkit', { key: key('convertkit', 'valid') });
      const res = await getConnector<ErrorBody>(server, NAMESPACES.convertkit, { endpoint: 'forms', page: '2' }, server.admin);
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'kb_mail_invalid_page_number');
    });

    test('a provider that repeats the key in its error never gets it into the answer', async () => {
      const k = key('convertkit', 'echoing');
      const res = await ask<ErrorBody>('convertkit', k, { endpoint: 'forms' });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'kb_mail_provider_unauthorized');
      assert.match(res.body.message, /“The key \[redacted\] is not valid”/);
      assert.ok(!res.text.includes(k));
    });
  });

  describe('FluentCRM (kb-mail-c/v1)', () => {
    test('reads the site’s fluent-crm/v2 API with the application password; lists and tags answered as lists', async () => {
      const k = key('fluentcrm', 'valid');
      const lists = await ask<{ title: string }[]>('fluentcrm', k, { endpoint: 'lists' });
      assert.equal(lists.status, 200, lists.text);
      assert.deepEqual(lists.body.map((l) => l.title), ['List 1', 'List 2', 'List 3']);
      assert.equal(fakes.fluentcrm.last.path, '/wp-json/fluent-crm/v2/lists', 'the API path is added to the site’s address');
      assert.equal(fakes.fluentcrm.last.headers.authorization, `Basic ${Buffer.from(k).toString('base64')}`);

      const tags = await getConnector<{ title: string }[]>(server, NAMESPACES.fluentcrm, { endpoint: 'tags', page: '3', per_page: '10' }, server.admin);
      assert.equal(tags.status, 200, tags.text);
      assert.deepEqual(tags.body.map((t) => t.title), ['Tag 21', 'Tag 22', 'Tag 23', 'Tag 24', 'Tag 25']);
      assert.equal(tags.headers.get('x-wp-total'), '25');
      assert.equal(tags.headers.get('x-wp-totalpages'), '3');
      assert.equal(fakes.fluentcrm.last.query.get('page'), '3');
      assert.equal(fakes.fluentcrm.last.query.get('per_page'), '10');

      const found = await getConnector<{ title: string }[]>(server, NAMESPACES.fluentcrm, { endpoint: 'lists', search: 'list 2' }, server.admin);
      assert.deepEqual(found.body.map((l) => l.title), ['List 2']);
      assert.equal(fakes.fluentcrm.last.query.get('search'), 'list 2');
    });

    test('fields: the contact fields every contact has, then the site’s custom ones', async () => {
      await configure(server, 'fluentcrm', { key: key('fluentcrm', 'valid') });
      const res = await getConnector<{ key: string; title: string }[]>(server, NAMESPACES.fluentcrm, { endpoint: 'fields' }, server.admin);
      assert.equal(res.status, 200, res.text);
      assert.equal(fakes.fluentcrm.last.path, '/wp-json/fluent-crm/v2/custom-fields/contacts');
      assert.deepEqual(res.body.slice(0, 2), [{ key: 'prefix', title: 'Name Prefix' }, { key: 'first_name', title: 'First Name' }]);
      assert.deepEqual(res.body.at(-1), { key: 'company', title: 'Company' });
      assert.equal(res.body.length, 14);
    });

    test('a key that is not USER:PASSWORD, and a site address not set, are clear 400s', async () => {
      await configure(server, 'fluentcrm', { key: 'valid-no-colon-in-it' });
      const bad = await getConnector<ErrorBody>(server, NAMESPACES.fluentcrm, { endpoint: 'lists' }, server.admin);
      assert.equal(bad.status, 400);
      assert.equal(bad.body.code, 'kb_mail_invalid_key');
      await configure(server, 'fluentcrm', { key: key('fluentcrm', 'valid'), baseUrl: '' });
      const noSite = await getConnector<ErrorBody>(server, NAMESPACES.fluentcrm, { endpoint: 'lists' }, server.admin);
      assert.equal(noSite.status, 400);
      assert.equal(noSite.body.code, 'kb_mail_not_configured');
      assert.equal(noSite.body.data.missing, 'base URL');
      assert.match(noSite.body.message, /the address of the WordPress site FluentCRM runs on.*cms-spec connector set fluentcrm --base-url/);
      await configure(server, 'fluentcrm', { baseUrl: baseUrlOf('fluentcrm', fakes.fluentcrm) });
    });
  });

  describe('Brevo (kb-mail-d/v1)', () => {
    test('reads contact lists with the api-key header and limit/offset; the answer is Brevo’s', async () => {
      const k = key('brevo', 'valid');
      const res = await ask<{ lists: { name: string }[]; count: number }>('brevo', k, { endpoint: 'contacts/lists', page: '3', per_page: '10' });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.lists[0].name, 'List 21');
      assert.equal(res.body.count, 30);
      assert.equal(res.headers.get('x-wp-total'), '30');
      assert.equal(res.headers.get('x-wp-totalpages'), '3');
      const seen = fakes.brevo.last;
      assert.equal(seen.path, '/v3/contacts/lists');
      assert.equal(seen.headers['api-key'], k);
      assert.equal(seen.query.get('limit'), '10');
      assert.equal(seen.query.get('offset'), '20');
      const folder = await ask<{ lists: unknown[] }>('brevo', k, { endpoint: 'contacts/folders/1/lists' });
      assert.equal(folder.status, 200, folder.text);
      const attributes = await ask<{ attributes: unknown[] }>('brevo', k, { endpoint: 'contacts/attributes' });
      assert.equal(attributes.body.attributes.length, 1);
    });

    test('a page size Brevo refuses comes back as its own reason, in a 400', async () => {
      const res = await ask<ErrorBody>('brevo', key('brevo', 'valid'), { endpoint: 'contacts/lists', per_page: '100' });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'kb_mail_provider_rejected');
      assert.match(res.body.message, /^Brevo rejected the request for contacts\/lists \(HTTP 400\): “Limit exceeds max value”\.$/);
      assert.equal(res.body.data.provider_status, 400);
    });
  });

  describe('ActiveCampaign (kb-mail-e/v1)', () => {
    test('reads /api/3 with Api-Token, limit/offset and filters[name]; answers the list itself', async () => {
      const k = key('activecampaign', 'valid');
      const res = await ask<{ name: string }[]>('activecampaign', k, { endpoint: 'lists', per_page: '5' });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.map((l) => l.name), ['List 1', 'List 2', 'List 3', 'List 4', 'List 5']);
      assert.equal(res.headers.get('x-wp-total'), '12', 'meta.total, a string at ActiveCampaign');
      assert.equal(res.headers.get('x-wp-totalpages'), '3');
      const seen = fakes.activecampaign.last;
      assert.equal(seen.path, '/api/3/lists');
      assert.equal(seen.headers['api-token'], k);
      assert.equal(seen.query.get('limit'), '5');
      assert.equal(seen.query.get('offset'), '0');

      const found = await getConnector<{ name: string }[]>(server, NAMESPACES.activecampaign, { endpoint: 'lists', search: 'List 1' }, server.admin);
      assert.deepEqual(found.body.map((l) => l.name), ['List 1', 'List 10', 'List 11', 'List 12']);
      assert.equal(fakes.activecampaign.last.query.get('filters[name]'), 'List 1');
      const all = await getConnector<unknown[]>(server, NAMESPACES.activecampaign, { endpoint: 'lists', queryargs: ['limit=200'] }, server.admin);
      assert.equal(all.body.length, 12, 'the editor’s limit=200 in queryargs wins');
      const tags = await getConnector<{ tag: string }[]>(server, NAMESPACES.activecampaign, { endpoint: 'tags', search: 'tag 3' }, server.admin);
      assert.deepEqual(tags.body.map((t) => t.tag), ['tag 3']);
      assert.equal(fakes.activecampaign.last.query.get('search'), 'tag 3');
    });

    test('queryargs that are not key=value pairs are a 400 naming the bad one', async () => {
      await configure(server, 'activecampaign', { key: key('activecampaign', 'valid') });
      const before = fakes.activecampaign.seen.length;
      const res = await getConnector<ErrorBody>(server, NAMESPACES.activecampaign, { endpoint: 'lists', queryargs: ['limit=5', 'oops'] }, server.admin);
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'rest_invalid_param');
      assert.equal(res.body.data.params?.queryargs, 'queryargs[1] must be a key=value pair, such as count=100.');
      assert.equal(fakes.activecampaign.seen.length, before);
    });
  });

  describe('MailerLite (kb-mail-f/v1)', () => {
    test('a new-API token: Bearer, limit/page, filter[name], meta.total', async () => {
      const k = key('mailerlite', 'valid');
      const res = await ask<{ data: { name: string }[]; meta: { total: number } }>('mailerlite', k, { endpoint: 'groups', page: '2', per_page: '5', search: 'group' });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.data.map((g) => g.name), ['Group 6', 'Group 7', 'Group 8']);
      assert.equal(res.headers.get('x-wp-total'), '8');
      assert.equal(res.headers.get('x-wp-totalpages'), '2');
      const seen = fakes.mailerlite.last;
      assert.equal(seen.path, '/ml/groups');
      assert.equal(seen.headers.authorization, `Bearer ${k}`);
      assert.equal(seen.headers['x-mailerlite-apikey'], undefined);
      assert.deepEqual([seen.query.get('limit'), seen.query.get('page'), seen.query.get('filter[name]')], ['5', '2', 'group']);
    });

    test('a Classic key: X-MailerLite-ApiKey and limit/offset; Classic has no forms', async () => {
      const k = key('mailerlite', 'valid', { classic: true });
      const res = await ask<{ name: string }[]>('mailerlite', k, { endpoint: 'groups', page: '2', per_page: '5' });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.map((g) => g.name), ['Group 6', 'Group 7', 'Group 8']);
      const seen = fakes.mailerlite.last;
      assert.equal(seen.headers['x-mailerlite-apikey'], k);
      assert.equal(seen.headers.authorization, undefined);
      assert.deepEqual([seen.query.get('limit'), seen.query.get('offset')], ['5', '5']);
      const forms = await ask<ErrorBody>('mailerlite', k, { endpoint: 'forms/popup' });
      assert.equal(forms.status, 400);
      assert.equal(forms.body.code, 'rest_invalid_endpoint');
      assert.match(forms.body.message, /^MailerLite Classic has no readable endpoint "forms\/popup" here\. Use one of: groups, fields, segments\.$/);
    });
  });

  describe('GetResponse (kb-mail-g/v1)', () => {
    test('needs manage_options, as the real connector', async () => {
      await configure(server, 'getresponse', { key: key('getresponse', 'valid') });
      const editor = await userAuth(server, 'editor');
      const res = await getConnector<ErrorBody>(server, NAMESPACES.getresponse, { endpoint: 'campaigns' }, editor.auth);
      assert.equal(res.status, 403);
      assert.deepEqual(res.body, { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } });
    });

    test('reads campaigns with X-Auth-Token, page/perPage and query[name]; the total from TotalCount', async () => {
      const k = key('getresponse', 'valid');
      const res = await ask<{ name: string }[]>('getresponse', k, { endpoint: 'campaigns', page: '2', per_page: '5' });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.map((c) => c.name), ['Campaign 6', 'Campaign 7']);
      assert.equal(res.headers.get('x-wp-total'), '7');
      assert.equal(res.headers.get('x-wp-totalpages'), '2');
      const seen = fakes.getresponse.last;
      assert.equal(seen.path, '/v3/campaigns');
      assert.equal(seen.headers['x-auth-token'], `api-key ${k}`);
      assert.deepEqual([seen.query.get('perPage'), seen.query.get('page')], ['5', '2']);
      const found = await getConnector<{ name: string }[]>(server, NAMESPACES.getresponse, { endpoint: 'campaigns', search: 'Campaign 3' }, server.admin);
      assert.deepEqual(found.body.map((c) => c.name), ['Campaign 3']);
      assert.equal(fakes.getresponse.last.query.get('query[name]'), 'Campaign 3');
    });
  });

  /** Retry-After each provider's 429 leads to: its own header, or none where the provider sends none (Mailchimp). */
  const RETRY_AFTER: Record<ProviderId, string | null> = { mailchimp: null, convertkit: '60', fluentcrm: '120', brevo: '7', activecampaign: '1', mailerlite: '42', getresponse: '25' };
  /** What each provider says when it refuses a key, as its fake says it. */
  const REFUSAL: Record<ProviderId, string> = {
    mailchimp: "Your API key may be invalid, or you've attempted to access the wrong datacenter.",
    convertkit: 'API Key not valid',
    fluentcrm: 'The provided password is an invalid application password.',
    brevo: 'Key not found',
    activecampaign: 'Unauthorized',
    mailerlite: 'Unauthenticated.',
    getresponse: 'Unable to authenticate request. Check credentials or authentication method details',
  };

  for (const id of IDS) {
    const title = TITLES[id];
    const ns = NAMESPACES[id];
    describe(`${title}: failures are WordPress errors`, () => {
      test('a refused key (401), a denial (403), a rate limit (429) and a provider failure (5xx)', async () => {
        const refused = await ask<ErrorBody>(id, key(id, 'wrong'), { endpoint: LIST[id] });
        assert.equal(refused.status, 400, refused.text);
        assert.equal(refused.body.code, 'kb_mail_provider_unauthorized');
        assert.ok(refused.body.message.startsWith(`${title}`), refused.body.message);
        assert.ok(refused.body.message.includes(`(HTTP 401): “${REFUSAL[id]}”`), refused.body.message);
        assert.deepEqual(refused.body.data, { status: 400, provider: id, provider_status: 401 });

        const denied = await ask<ErrorBody>(id, key(id, 'forbidden'), { endpoint: LIST[id] });
        assert.equal(denied.status, 400);
        assert.equal(denied.body.code, 'kb_mail_provider_forbidden');
        assert.match(denied.body.message, new RegExp(`^${title} denied access to ${LIST[id]} \\(HTTP 403\\)`));

        const limited = await ask<ErrorBody>(id, key(id, 'throttled'), { endpoint: LIST[id] });
        assert.equal(limited.status, 429);
        assert.equal(limited.body.code, 'kb_mail_provider_rate_limited');
        assert.equal(limited.headers.get('retry-after'), RETRY_AFTER[id]);
        assert.equal(limited.body.data.retry_after, RETRY_AFTER[id] === null ? undefined : Number(RETRY_AFTER[id]));
        assert.match(limited.body.message, RETRY_AFTER[id] ? new RegExp(`Try again in ${RETRY_AFTER[id]} seconds\\.$`) : /Try again later\.$/);

        const failed = await ask<ErrorBody>(id, key(id, 'broken'), { endpoint: LIST[id] });
        assert.equal(failed.status, 502);
        assert.equal(failed.body.code, 'kb_mail_provider_error');
        assert.match(failed.body.message, new RegExp(`^${title} failed to answer ${LIST[id]} \\(HTTP 503\\)`));
      });

      test('no key: a 400 saying how to set one, and the provider is not called', async () => {
        await configure(server, id, { key: '' });
        const before = fakes[id].seen.length;
        const res = await getConnector<ErrorBody>(server, ns, { endpoint: LIST[id] }, server.admin);
        assert.equal(res.status, 400);
        assert.equal(res.body.code, 'kb_mail_not_configured');
        assert.equal(res.body.data.missing, 'key');
        assert.match(res.body.message, new RegExp(`cms-spec connector set ${id} --key`));
        if (PER_REQUEST.has(id)) assert.match(res.body.message, /pass `apikey`/);
        assert.equal(fakes[id].seen.length, before);
      });

      test('an endpoint that is not one of its read endpoints is a 400 listing them; nothing is called', async () => {
        const before = fakes[id].seen.length;
        for (const endpoint of ['lists/1/members/delete', '../admin', '']) {
          const res = await ask<ErrorBody>(id, key(id, 'valid'), endpoint ? { endpoint } : {});
          assert.equal(res.status, 400, endpoint);
          assert.equal(res.body.code, 'rest_invalid_endpoint');
          assert.ok(res.body.data.endpoints?.includes(LIST[id]));
        }
        assert.equal(fakes[id].seen.length, before);
      });
    });
  }

  describe('network failures', () => {
    test('a provider that does not answer in time is a 504', async () => {
      const res = await ask<ErrorBody>('getresponse', key('getresponse', 'slow'), { endpoint: 'campaigns' });
      assert.equal(res.status, 504);
      assert.deepEqual(res.body, { code: 'kb_mail_provider_timeout', message: `GetResponse did not answer within ${TIMEOUT_MS} ms.`, data: { status: 504, provider: 'getresponse' } });
    });

    test('an address nothing listens on is a 502; a private address not allowed is a 400', async () => {
      const closed = new FakeProvider(FAKE_APIS.brevo);
      await closed.start();
      await closed.stop();
      await configure(server, 'brevo', { baseUrl: `${closed.base}/v3` });
      const unreachable = await ask<ErrorBody>('brevo', key('brevo', 'valid'), { endpoint: 'contacts/lists' });
      assert.equal(unreachable.status, 502);
      assert.equal(unreachable.body.code, 'kb_mail_provider_unreachable');
      assert.match(unreachable.body.message, /^Brevo could not be reached: Could not reach 127\.0\.0\.1:\d+: ECONNREFUSED\.$/);

      await configure(server, 'brevo', { baseUrl: 'http://10.1.2.3/v3' });
      const privateAddress = await ask<ErrorBody>('brevo', key('brevo', 'valid'), { endpoint: 'contacts/lists' });
      assert.equal(privateAddress.status, 400);
      assert.equal(privateAddress.body.code, 'kb_mail_provider_forbidden_address');
      await configure(server, 'brevo', { baseUrl: baseUrlOf('brevo', fakes.brevo) });
    });
  });

  describe('permissions', () => {
    test('anonymous callers get 401 and users without edit_posts 403; contributors may read a … f', async () => {
      const subscriber = await userAuth(server, 'subscriber');
      const contributor = await userAuth(server, 'contributor');
      for (const id of IDS) {
        await configure(server, id, { key: key(id, 'valid') });
        const anonymous = await getConnector<ErrorBody>(server, NAMESPACES[id], { endpoint: LIST[id] });
        assert.equal(anonymous.status, 401, id);
        assert.deepEqual(anonymous.body, { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } });
        assert.equal((await getConnector(server, NAMESPACES[id], { endpoint: LIST[id] }, subscriber.auth)).status, 403, id);
        const asContributor = await getConnector(server, NAMESPACES[id], { endpoint: LIST[id] }, contributor.auth);
        assert.equal(asContributor.status, id === 'getresponse' ? 403 : 200, `${id}: ${asContributor.text}`);
      }
    });

    test('bad arguments are refused before the permission check, as WordPress does', async () => {
      const res = await getConnector<ErrorBody>(server, NAMESPACES.mailchimp, { endpoint: 'lists', per_page: '500' });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'rest_invalid_param');
    });
  });

  test('the hosts the connectors call with the stored settings, for the site’s outbound check', () => {
    const hosts = mailConnectors.outbound!.hosts!({
      mail_connectors_mailchimp_key: 'valid-0123-us7',
      mail_connectors_activecampaign_base_url: 'https://acme.api-us1.com',
      mail_connectors_mailerlite_key: 'x'.repeat(120),
    });
    assert.deepEqual(hosts, ['us7.api.mailchimp.com', 'api.convertkit.com', 'api.brevo.com', 'acme.api-us1.com', 'connect.mailerlite.com', 'api.getresponse.com']);
  });

  // last: everything above has been answered
  test('no key handed to the site is in any answer (headers included) or in the server’s log', () => {
    assert.ok(keys.length > 40 && answered.length > 60, 'the search has something to search');
    const everything = [...answered, ...server.errors].join('\n');
    for (const k of keys) {
      const secret = k.replace(/^api-user:/, '');
      assert.ok(!everything.includes(secret), `a key was echoed: ${secret.slice(0, 12)}…`);
      assert.ok(!everything.includes(Buffer.from(`user:${k}`).toString('base64')) && !everything.includes(Buffer.from(k).toString('base64')));
    }
    assert.deepEqual(server.errors, [], 'nothing was logged as a server error');
  });
});
