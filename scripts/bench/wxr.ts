import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';

/**
 * A WordPress export (WXR 1.2, laid out as export_wp() writes it) of a made-up blog of `posts`
 * posts: 3 authors, 40 categories (some nested), 200 tags, and per post two categories, three tags,
 * a few post meta (one PHP-serialized) and, for every third post, two comments (a reply among
 * them). Written as a stream, so any size fits in memory.
 */

const cdata = (s: string) => `<![CDATA[${s.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
const pad = (n: number) => String(n).padStart(2, '0');
const dateOf = (i: number) => {
  const d = new Date(Date.UTC(2015, 0, 1) + i * 3_600_000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
};
const WORDS = 'garden river stone light orchard winter harvest lantern meadow harbor copper window bridge quiet morning ember field valley'.split(' ');
const sentence = (i: number, n: number) => Array.from({ length: n }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(' ');

export async function writeWxr(path: string, posts: number, base = 'https://old.example'): Promise<{ bytes: number; records: number }> {
  const out = createWriteStream(path);
  let bytes = 0;
  let records = 0;
  const write = async (s: string) => {
    bytes += Buffer.byteLength(s);
    if (!out.write(s)) await once(out, 'drain');
  };
  await write(`<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wfw="http://wellformedweb.org/CommentAPI/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel>
	<title>Bench blog</title>
	<link>${base}</link>
	<description>Generated</description>
	<language>en-US</language>
	<wp:wxr_version>1.2</wp:wxr_version>
	<wp:base_site_url>${base}</wp:base_site_url>
	<wp:base_blog_url>${base}</wp:base_blog_url>
`);
  for (let a = 1; a <= 3; a++) {
    records++;
    await write(`	<wp:author><wp:author_id>${a}</wp:author_id><wp:author_login>${cdata(`writer${a}`)}</wp:author_login><wp:author_email>${cdata(`writer${a}@old.example`)}</wp:author_email><wp:author_display_name>${cdata(`Writer ${a}`)}</wp:author_display_name><wp:author_first_name>${cdata('Writer')}</wp:author_first_name><wp:author_last_name>${cdata(String(a))}</wp:author_last_name></wp:author>\n`);
  }
  for (let c = 1; c <= 40; c++) {
    records++;
    const parent = c > 10 ? `topic-${((c - 1) % 10) + 1}` : '';
    await write(`	<wp:category><wp:term_id>${c}</wp:term_id><wp:category_nicename>${cdata(`topic-${c}`)}</wp:category_nicename><wp:category_parent>${cdata(parent)}</wp:category_parent><wp:cat_name>${cdata(`Topic ${c}`)}</wp:cat_name></wp:category>\n`);
  }
  for (let t = 1; t <= 200; t++) {
    records++;
    await write(`	<wp:tag><wp:term_id>${100 + t}</wp:term_id><wp:tag_slug>${cdata(`tag-${t}`)}</wp:tag_slug><wp:tag_name>${cdata(`Tag ${t}`)}</wp:tag_name></wp:tag>\n`);
  }
  for (let i = 1; i <= posts; i++) {
    records++;
    const id = 1000 + i;
    const date = dateOf(i);
    const comments =
      i % 3 === 0
        ? [1, 2]
            .map(
              (k) => `		<wp:comment>
			<wp:comment_id>${i * 2 + k}</wp:comment_id>
			<wp:comment_author>${cdata(`Reader ${k}`)}</wp:comment_author>
			<wp:comment_author_email>${cdata(`reader${k}@example.org`)}</wp:comment_author_email>
			<wp:comment_author_url>https://reader.example</wp:comment_author_url>
			<wp:comment_author_IP>${cdata('192.0.2.1')}</wp:comment_author_IP>
			<wp:comment_date>${cdata(date)}</wp:comment_date>
			<wp:comment_date_gmt>${cdata(date)}</wp:comment_date_gmt>
			<wp:comment_content>${cdata(sentence(i + k, 20))}</wp:comment_content>
			<wp:comment_approved>${cdata('1')}</wp:comment_approved>
			<wp:comment_type>${cdata('comment')}</wp:comment_type>
			<wp:comment_parent>${k === 2 ? i * 2 + 1 : 0}</wp:comment_parent>
			<wp:comment_user_id>0</wp:comment_user_id>
		</wp:comment>
`,
            )
            .join('')
        : '';
    const paragraphs = Array.from({ length: 6 }, (_, p) => `<!-- wp:paragraph -->\n<p>${sentence(i + p, 40)} <a href="${base}/topic-${(i % 40) + 1}/">more</a></p>\n<!-- /wp:paragraph -->`).join('\n\n');
    await write(`	<item>
		<title>${cdata(`Post ${i}: ${sentence(i, 4)}`)}</title>
		<link>${base}/?p=${id}</link>
		<pubDate>Thu, 01 Jan 2015 00:00:00 +0000</pubDate>
		<dc:creator>${cdata(`writer${(i % 3) + 1}`)}</dc:creator>
		<guid isPermaLink="false">${base}/?p=${id}</guid>
		<description></description>
		<content:encoded>${cdata(paragraphs)}</content:encoded>
		<excerpt:encoded>${cdata(sentence(i, 12))}</excerpt:encoded>
		<wp:post_id>${id}</wp:post_id>
		<wp:post_date>${cdata(date)}</wp:post_date>
		<wp:post_date_gmt>${cdata(date)}</wp:post_date_gmt>
		<wp:post_modified>${cdata(date)}</wp:post_modified>
		<wp:post_modified_gmt>${cdata(date)}</wp:post_modified_gmt>
		<wp:comment_status>${cdata('open')}</wp:comment_status>
		<wp:ping_status>${cdata('open')}</wp:ping_status>
		<wp:post_name>${cdata(`post-${i}`)}</wp:post_name>
		<wp:status>${cdata('publish')}</wp:status>
		<wp:post_parent>0</wp:post_parent>
		<wp:menu_order>0</wp:menu_order>
		<wp:post_type>${cdata('post')}</wp:post_type>
		<wp:post_password>${cdata('')}</wp:post_password>
		<wp:is_sticky>0</wp:is_sticky>
		<category domain="category" nicename="topic-${(i % 40) + 1}">${cdata(`Topic ${(i % 40) + 1}`)}</category>
		<category domain="category" nicename="topic-${((i + 7) % 40) + 1}">${cdata(`Topic ${((i + 7) % 40) + 1}`)}</category>
${[0, 1, 2].map((k) => `		<category domain="post_tag" nicename="tag-${((i + k * 13) % 200) + 1}">${cdata(`Tag ${((i + k * 13) % 200) + 1}`)}</category>\n`).join('')}		<wp:postmeta>
			<wp:meta_key>${cdata('_edit_last')}</wp:meta_key>
			<wp:meta_value>${cdata('1')}</wp:meta_value>
		</wp:postmeta>
		<wp:postmeta>
			<wp:meta_key>${cdata('reading_time')}</wp:meta_key>
			<wp:meta_value>${cdata(String(i % 9))}</wp:meta_value>
		</wp:postmeta>
		<wp:postmeta>
			<wp:meta_key>${cdata('layout')}</wp:meta_key>
			<wp:meta_value>${cdata('a:2:{s:5:"width";s:4:"wide";s:7:"sidebar";b:0;}')}</wp:meta_value>
		</wp:postmeta>
${comments}	</item>
`);
  }
  await write('</channel>\n</rss>\n');
  out.end();
  await finished(out);
  return { bytes, records };
}

/**
 * The two streaming XML parsers the project has, reading the same file the way the importer
 * does (every tag, text and CDATA event seen): seconds each takes, and whether each stops at a
 * well-formedness error, which the import relies on to refuse a broken file before writing.
 */
export async function parserSeconds(path: string): Promise<{ saxes: number; htmlparser2: number }> {
  const { createReadStream } = await import('node:fs');
  const { SaxesParser } = await import('saxes');
  const { Parser } = await import('htmlparser2');
  const time = async (feed: (chunk: string) => void, end: () => void) => {
    const started = process.hrtime.bigint();
    for await (const chunk of createReadStream(path, { encoding: 'utf8' })) feed(chunk as string);
    end();
    return Number(process.hrtime.bigint() - started) / 1e9;
  };
  let events = 0;
  const count = () => void events++;
  const sax = new SaxesParser({ position: true });
  sax.on('opentag', count);
  sax.on('closetag', count);
  sax.on('text', count);
  sax.on('cdata', count);
  const saxes = await time((c) => sax.write(c), () => sax.close());
  const html = new Parser({ onopentag: count, onclosetag: count, ontext: count, oncdatastart: count }, { xmlMode: true });
  const htmlparser2 = await time((c) => html.write(c), () => html.end());
  return { saxes, htmlparser2 };
}
