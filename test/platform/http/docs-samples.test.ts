// @store-independent
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACTS } from '../../../scripts/tools.js';
import { contractChecker, contractFetch } from '../../support/contract.js';
import { startServer, type TestServer } from '../../support/server.js';

/**
 * A reader copies the curl sample of a docs page and runs it: it must answer
 * what the operation documents, not JSONP, an envelope or three fields. The
 * samples are made as the page makes them, by Scalar's own generator
 * (`generateCodeSnippet` of `@scalar/blocks`, what the page's "curl" tab
 * runs) from the document the page renders (`/docs/<name>/reference.json`),
 * for every GET operation of every page; the URL of each is fetched from the
 * server, the answer checked against the contract and compared with the
 * answer to the bare path.
 */
type Snippet = (options: Record<string, unknown>) => string | null;
let server: TestServer;
let generateCodeSnippet: Snippet;
let checkedFetch: typeof fetch;

beforeAll(async () => {
  // Scalar's generator, as its browser bundle has it; a package of Scalar's own (a dependency of @scalar/api-reference), typed here by what is used.
  const blocks = '@scalar/blocks/code-example';
  [server, { generateCodeSnippet }, checkedFetch] = await Promise.all([
    startServer(),
    import(blocks) as Promise<{ generateCodeSnippet: Snippet }>,
    contractChecker().then(contractFetch),
  ]);
});
afterAll(() => server?.close());

interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  servers?: { url: string }[];
  responses: Record<string, unknown>;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: unknown;
  examples?: Record<string, unknown>;
}
type Document = {
  servers: { url: string }[];
  paths: Record<string, Record<string, unknown> & { parameters?: Parameter[]; servers?: { url: string }[] }>;
};

/** Local `$ref`s followed, as Scalar's store does before its generator sees an operation. */
function dereference<T>(document: Document, value: T): T {
  let current: unknown = value;
  while (current && typeof current === 'object' && '$ref' in current) {
    current = (current as { $ref: string }).$ref
      .slice(2)
      .split('/')
      .reduce<unknown>(
        (node, key) => (node as Record<string, unknown>)[key.replaceAll('~1', '/').replaceAll('~0', '~')],
        document,
      );
  }
  return current as T;
}

/** The curl sample of a GET operation, as the page shows it with no parameter ticked. */
function curlSample(document: Document, path: string): string {
  const item = document.paths[path]!;
  const operation = item.get as Operation;
  const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((reference) => {
    const parameter = dereference(document, reference);
    const examples =
      parameter.examples &&
      Object.fromEntries(
        Object.entries(parameter.examples).map(([name, example]) => [name, dereference(document, example)]),
      );
    return { ...parameter, schema: dereference(document, parameter.schema), ...(examples ? { examples } : {}) };
  });
  const server = operation.servers?.[0] ?? item.servers?.[0] ?? document.servers[0]!;
  const sample = generateCodeSnippet({
    clientId: 'shell/curl',
    contentType: undefined,
    customCodeSamples: [],
    example: undefined,
    method: 'get',
    operation: { ...operation, parameters },
    path,
    securitySchemes: [],
    server,
  });
  if (!sample) throw new Error(`no curl sample for GET ${path}`);
  return sample;
}

const urlOf = (sample: string) => /^curl (?:--url )?'?([^'\s]+)'?/.exec(sample)?.[1];

describe.each(CONTRACTS)('the curl samples of /docs/%s, copied', (name) => {
  it('answer, for every GET operation, what the operation documents, with only its required parameters', async () => {
    const document = (await (await fetch(`${server.url}/docs/${name}/reference.json`)).json()) as Document;
    const gets = Object.keys(document.paths).filter((path) => document.paths[path]!.get);
    expect(gets.length).toBeGreaterThan(0);
    for (const path of gets) {
      const operation = document.paths[path]!.get as Operation;
      const sample = curlSample(document, path);
      const url = new URL(urlOf(sample) ?? '', server.url);
      expect(url.origin, sample).toBe(server.url);
      const required = [...(document.paths[path]!.parameters ?? []), ...(operation.parameters ?? [])]
        .map((parameter) => dereference(document, parameter))
        .filter((parameter) => parameter.in === 'query' && parameter.required)
        .map((parameter) => parameter.name);
      expect([...url.searchParams.keys()], sample).toEqual(required);
      const copied = await checkedFetch(url);
      expect(Object.keys(operation.responses), `${sample} -> ${copied.status}`).toContain(String(copied.status));
      const type = copied.headers.get('content-type') ?? '';
      expect(type, sample).not.toContain('javascript');
      const bare = await checkedFetch(new URL(url.pathname + (required.length ? url.search : ''), url));
      expect(copied.status).toBe(bare.status);
      if (type.startsWith('application/json')) expect(await copied.json(), sample).toEqual(await bare.json());
    }
  });
});
