import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { unzipSync } from 'fflate';
import { RestError } from '../engine/errors.ts';

/**
 * Where `POST plugins` gets a plugin: WordPress asks WordPress.org's plugin directory
 * (plugins_api) for the slug's download; this server never reaches WordPress.org, and installs
 * only from the folder it is configured to trust (CMS_SPEC_PLUGIN_SOURCE), which holds plugin
 * folders (`{slug}/plugin.ts`) and zip files of one (`{slug}.zip` holding `{slug}/…`).
 */

/**
 * plugins_api's error when its request does not go out, as WordPress 6.1 answers it with
 * WP_HTTP_BLOCK_EXTERNAL on: the controller adds status 500, and the request's own message stays
 * as earlier error data. A slug the trusted source does not have is one the directory could not
 * be asked for.
 */
export function pluginsApiFailed(): RestError {
  const error = new RestError(
    'plugins_api_failed',
    'An unexpected error occurred. Something may be wrong with WordPress.org or this server&#8217;s configuration. If you continue to have problems, please try the <a href="https://wordpress.org/support/forums/">support forums</a>.',
    500,
  );
  error.additionalData = ['User has blocked requests through HTTP.'];
  return error;
}

/** WP_Upgrader::install_package's refusal to overwrite, with the destination as its earlier error data. */
function folderExists(destination: string): RestError {
  const error = new RestError('folder_exists', 'Destination folder already exists.', 500);
  error.additionalData = [`${destination}/`];
  return error;
}

/** WP_Upgrader's word for a package it cannot unpack or that holds no plugin folder of the slug. */
const incompatibleArchive = () => new RestError('incompatible_archive', 'The package could not be installed.', 500);

/**
 * Copies the slug's plugin from the source into the folder `into` (as `into/{slug}`), whole or not
 * at all: it is unpacked beside its destination under a dot-name (which no plugin has) and renamed.
 * `installedAt`: the folder of a plugin of that name installed already.
 */
export function installFromSource(source: string | null, slug: string, into: string, installedAt?: string): void {
  const folder = source && join(source, slug);
  const zip = source && join(source, `${slug}.zip`);
  const fromFolder = folder && existsSync(folder) && statSync(folder).isDirectory();
  const fromZip = zip && existsSync(zip) && statSync(zip).isFile();
  if (!fromFolder && !fromZip) throw pluginsApiFailed();
  const destination = join(into, slug);
  // the slug is taken wherever a plugin of that name is, in this folder or another the spec names
  if (installedAt || existsSync(destination)) throw folderExists(installedAt ?? destination);
  mkdirSync(into, { recursive: true });
  const work = mkdtempSync(join(into, '.installing-'));
  try {
    if (fromFolder) cpSync(folder, join(work, slug), { recursive: true, dereference: true });
    else unzipPlugin(readFileSync(zip!), slug, work);
    renameSync(join(work, slug), destination);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Writes the zip's `{slug}/…` entries under `work`; any other entry, or one escaping its folder, refuses the package. */
function unzipPlugin(bytes: Buffer, slug: string, work: string): void {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes);
  } catch {
    throw incompatibleArchive();
  }
  const root = resolve(work, slug);
  const files = Object.entries(entries).filter(([name]) => !name.endsWith('/'));
  if (!files.length) throw incompatibleArchive();
  for (const [name, data] of files) {
    const target = resolve(work, name);
    if (!name.startsWith(`${slug}/`) || !target.startsWith(root + sep)) throw incompatibleArchive();
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, data);
  }
}
