import type { Ctx } from '../../../core/context.ts';
import { designLibrary } from '../plugin.ts';
import { libraryService } from '../services.ts';
import { readSettings } from '../settings.ts';

type EventData = Record<string, unknown>;

/** The wizard's answers an event repeats: context field ← event_data field. */
const WIZARD = {
  organization_type: 'entityType',
  location_type: 'locationType',
  location: 'location',
  industry: 'industry',
  description: 'missionStatement',
  keywords: 'keywords',
  tone: 'tone',
  collections: 'customCollections',
  lang: 'lang',
  goals: 'goals',
};
const INLINE = { tool_name: 'tool_name', type: 'type', initial_text: 'initial_text' };

/** The events the editor reports (Kadence's labels): the analytics name of each and what of its data is passed on. */
const EVENTS: Record<string, { name: string; fields?: Record<string, string>; build?: (d: EventData) => EventData }> = {
  ai_wizard_started: { name: 'AI Wizard Started' },
  ai_wizard_update: { name: 'AI Wizard Update', fields: WIZARD },
  ai_wizard_complete: { name: 'AI Wizard Complete', fields: WIZARD },
  pattern_added_to_page: {
    name: 'Pattern Added to Page',
    fields: { pattern_id: 'id', pattern_slug: 'slug', pattern_name: 'name', pattern_style: 'style', pattern_is_ai: 'is_ai', pattern_context: 'context', pattern_categories: 'categories' },
  },
  ai_inline_completed: { name: 'AI Inline Completed', fields: { ...INLINE, result: 'result', credits_before: 'credits_before', credits_after: 'credits_after', credits_used: 'credits_used' } },
  ai_inline_requested: { name: 'AI Inline Requested', fields: INLINE },
  collection_updated: { name: 'Collection Updated', build: collectionUpdated },
};

/** Which collection was chosen: a custom one by its label, else the library's by its id. */
function collectionUpdated(d: EventData): EventData {
  const chosen = typeof d.photoLibrary === 'string' ? d.photoLibrary : '';
  const custom = Array.isArray(d.customCollections) ? d.customCollections.find((c) => c && typeof c === 'object' && (c as EventData).value === chosen) : undefined;
  return custom ? { collection_name: (custom as EventData).label ?? '', is_custom: true } : { collection_name: chosen, is_custom: false };
}

const contextOf = (e: (typeof EVENTS)[string], d: EventData): EventData =>
  e.build ? e.build(d) : Object.fromEntries(Object.entries(e.fields ?? {}).map(([to, from]) => [to, d[from] ?? '']));

/**
 * POST handle_event: an editor event (`event_label` one of Kadence's, `event_data` its details)
 * kept in the store, then, when a license key is set, forwarded to the AI service's
 * analytics/event (after the answer: the editor does not wait for it); whether it was forwarded is
 * kept with it. An unknown label is a 400.
 */
export async function handleEvent(ctx: Ctx<'design-library:events.handleEvent'>) {
  const label = typeof ctx.args.event_label === 'string' ? ctx.args.event_label.trim() : '';
  const event = Object.hasOwn(EVENTS, label) ? EVENTS[label] : undefined;
  if (!event)
    throw ctx.fail('kb_design_library_unknown_event', { event: label, events: Object.keys(EVENTS) }, { params: ['event_label'] });
  const data: EventData = ctx.args.event_data && typeof ctx.args.event_data === 'object' ? ctx.args.event_data : {};
  const context = contextOf(event, data);
  const id = await ctx.store.plugin(designLibrary).addEvent({ label, name: event.name, context, source: String(ctx.config.source ?? 'kadence-blocks') });
  void forward(ctx, id, event.name, context);
  return { message: 'Event handled.', id, name: event.name };
}

/** Sends one kept event to the analytics endpoint and records the outcome; never throws (the request has been answered). */
async function forward(ctx: Ctx, id: number, name: string, context: EventData): Promise<void> {
  // the site's own store: the request's may be gone by the time the service answers
  const repo = ctx.site.store.plugin(designLibrary);
  try {
    const settings = await readSettings(ctx.site.store);
    if (!settings.licenseKey) return await repo.eventForwarded(id, 'not forwarded: no license key is set');
    const ai = libraryService('ai', settings.aiUrl, ctx.site, settings, { token: true });
    await ai.json({ method: 'POST', path: 'analytics/event', json: { name, context } });
    await repo.eventForwarded(id, null);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    await repo.eventForwarded(id, message).catch(() => ctx.log.error(`design library: event ${id} could not be forwarded: ${message}`));
  }
}
