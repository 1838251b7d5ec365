import { existsSync, readdirSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { CliError } from './errors.ts';
import { PACKAGE_ROOT, scaffold } from './scaffold.ts';

/** A folder's name as an npm package name and a namespace: lower-case letters, digits and hyphens. */
const nameOf = (folder: string) =>
  basename(folder)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/**
 * `cms-spec init FOLDER`: a new API project served by the engine alone (site.yaml `core: false`):
 * package.json depending on this cms-spec, a spec with one namespace (`NAME/v1`), its handler
 * module, a test that serves it, and a README. The folder must be new or empty.
 */
export function initCommand(folder: string, o: { cmsSpec?: string }): void {
  const dir = resolve(folder);
  const name = nameOf(dir);
  if (!name) throw new CliError(`Name the project's folder with letters or digits (my-api), not "${folder}".`);
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new CliError(`${folder} exists and is not empty; init makes a new project in a new or empty folder.`);
  // a path dependency on this package, as npm itself writes one (`npm install ../cms-spec`)
  const dependency = o.cmsSpec ?? `file:${relative(dir, PACKAGE_ROOT).split('\\').join('/')}`;
  scaffold(
    [
      { from: 'project', to: dir },
      { from: 'project.gitignore', to: join(dir, '.gitignore') },
    ],
    { name, namespace: `${name}/v1`, dependency },
  );
  console.log(`Project ${name} created in ${folder}: the API ${name}/v1, served by the cms-spec engine alone.
Next:
  cd ${folder}
  npm install
  npm test       # lints the spec, then runs test/
  npm start      # serves http://127.0.0.1:8080/api/`);
}
