import { readFileSync } from 'node:fs';
import { defineConfig } from '@hey-api/openapi-ts';
import { parseYaml } from './scripts/contracts.js';
import { CONTRACTS } from './scripts/tools.js';

/** One generated folder per contract (every `openapi/<name>.yaml`): types and a typed fetch SDK. */
const OUTPUT_ROOT = process.env.GENERATE_OUTPUT_ROOT ?? './generated';

interface Server {
  url: string;
  variables?: Record<string, { default?: string }>;
}

/**
 * The contract's first server with every variable at its default: the
 * default client's base URL. openapi-ts skips a server URL that still has
 * `{variables}` in it, and the default client would then have none.
 */
function defaultServerUrl(service: string): string {
  const document = parseYaml(readFileSync(`./openapi/${service}.yaml`, 'utf8')) as { servers?: Server[] };
  const server = document.servers?.[0];
  if (!server) throw new Error(`openapi/${service}.yaml declares no server`);
  return server.url.replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '');
}

/** A schema named `Error` would shadow JavaScript's own in every module that imports it: it gets the service's name in front (`ProfilesError`). */
const schemaTypeName = (service: string) => (name: string) =>
  name === 'Error' ? `${service[0]!.toUpperCase()}${service.slice(1)}Error` : name;

export default defineConfig(
  CONTRACTS.map((service) => ({
    input: `./openapi/${service}.yaml`,
    output: { path: `${OUTPUT_ROOT}/${service}`, format: null, lint: null },
    plugins: [
      { name: '@hey-api/typescript', definitions: { name: schemaTypeName(service) } },
      '@hey-api/sdk',
      { name: '@hey-api/client-fetch', baseUrl: defaultServerUrl(service) },
    ],
  })),
);
