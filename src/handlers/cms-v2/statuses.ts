import { missingObject } from '../../engine/index.ts';
import type { Ctx } from '../../core/context.ts';
import { cap } from '../../core/content-types.ts';
import { POST_STATUSES, postStatus, type PostStatusInfo } from '../../core/post-statuses.ts';
import { contextOf, denied, nsUrl, pick, type Context } from '../../core/rest.ts';

/** Field order of each context, as WP_REST_Post_Statuses_Controller's schema gives them. */
const FIELDS: Record<Context, readonly string[]> = {
  edit: ['name', 'private', 'protected', 'public', 'queryable', 'show_in_list', 'slug', 'date_floating'],
  view: ['name', 'public', 'queryable', 'slug', 'date_floating'],
  embed: ['name', 'slug'],
};

/** Whether the caller may edit posts of any type the REST API shows (what non-public statuses ask for). */
const editsAnyType = (ctx: Ctx) => ctx.site.types.postTypes.some((t) => ctx.can(cap(t, 'edit_posts')));

/** check_read_permission: public statuses are for everyone; the others (and trash) for people who edit posts; internal ones for nobody. */
const readable = (ctx: Ctx, s: PostStatusInfo) => s.public || ((!s.internal || s.slug === 'trash') && editsAnyType(ctx));

function prepareStatus(ctx: Ctx, s: PostStatusInfo): Record<string, unknown> {
  const data = pick(
    {
      name: s.label,
      private: s.private,
      protected: s.protected,
      public: s.public,
      queryable: s.public,
      show_in_list: !s.internal,
      slug: s.slug,
      date_floating: s.dateFloating,
    },
    FIELDS[contextOf(ctx)],
  ) as Record<string, unknown>;
  const posts = nsUrl(ctx, 'posts');
  data._links = { archives: [{ href: s.slug === 'publish' ? posts : `${posts}?status=${encodeURIComponent(s.slug)}` }] };
  return data;
}

/** GET statuses: every status that is not internal, and trash, keyed by slug; the caller sees those it may read. */
export function listStatuses(ctx: Ctx<'cms-v2:statuses.listStatuses'>) {
  if (contextOf(ctx) === 'edit' && !editsAnyType(ctx)) throw denied(ctx, 'rest_cannot_view', { action: 'manage post statuses' });
  const shown = POST_STATUSES.filter((s) => (!s.internal || s.slug === 'trash') && readable(ctx, s));
  return Object.fromEntries(shown.map((s) => [s.slug, prepareStatus(ctx, s)]));
}

export function getStatus(ctx: Ctx<'cms-v2:statuses.getStatus'>) {
  const s = postStatus(String(ctx.args.status));
  if (!s) throw missingObject(ctx.fail('rest_status_invalid'));
  if (!readable(ctx, s)) throw denied(ctx, 'rest_cannot_read_status');
  return prepareStatus(ctx, s);
}
