import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { siteCommand, withSite } from './site-store.ts';

/**
 * `cms-spec openapi`: the OpenAPI 3.1 document of the routes the installed site serves (its active
 * plugins, its post types' routes), exactly as the site serves it at `/cms-json/?_openapi=1`.
 */
export function registerOpenApiCommand(program: Command): void {
  siteCommand(program, 'openapi', 'write the OpenAPI 3.1 document of the routes the site serves (as GET /cms-json/?_openapi=1 answers it)')
    .option('--out <file>', 'write it to this file instead of standard output')
    .action(
      withSite(async ({ engine }, o: { out?: string }) => {
        const text = `${JSON.stringify(engine.openApiAt(engine.root).data, null, 2)}\n`;
        if (o.out) writeFileSync(o.out, text);
        else process.stdout.write(text);
      }),
    );
}
