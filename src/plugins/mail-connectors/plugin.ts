import { definePlugin, type PluginDefinition } from '../../core/plugin.ts';
import { connectorCommands } from './cli.ts';
import { mailchimpDataCentre, PROVIDERS } from './providers.ts';
import { optionNames, SETTINGS_DEFAULTS } from './settings.ts';

/**
 * The form connectors of Kadence Blocks (and Pro) behind kb-mail-a/v1 … kb-mail-g/v1: each reads
 * one email-marketing provider's lists, tags, fields or forms for the editor's pickers, through
 * the guarded outbound client. Which provider serves which namespace, and why, is in each
 * namespace's YAML; keys and base URLs are options set with `cms-spec connector set`.
 */
export const mailConnectors: PluginDefinition<undefined> = definePlugin({
  name: 'mail-connectors',
  title: 'Mail Connectors',
  version: '1.0.0',
  description: 'Reads lists, tags, fields and forms from Mailchimp, ConvertKit, FluentCRM, Brevo, ActiveCampaign, MailerLite and GetResponse for form blocks.',
  author: 'cms-spec',
  namespaces: PROVIDERS.map((p) => p.namespace),
  settings: SETTINGS_DEFAULTS,
  cli: connectorCommands,
  outbound: { hosts: (options) => PROVIDERS.flatMap((p) => providerHosts(options, p)) },
});

/** The hosts a connector calls with the stored settings (a Mailchimp host needs a stored key to name its data centre). */
function providerHosts(options: Readonly<Record<string, string>>, p: (typeof PROVIDERS)[number]): string[] {
  const names = optionNames(p);
  const key = options[names.key] ?? '';
  let base = options[names.baseUrl] || p.api(key).defaultBaseUrl || '';
  if (base.includes('{dc}')) {
    const dc = mailchimpDataCentre(key);
    if (!dc) return [];
    base = base.replaceAll('{dc}', dc);
  }
  try {
    return base ? [new URL(base).host] : [];
  } catch {
    return [];
  }
}

export default mailConnectors;
