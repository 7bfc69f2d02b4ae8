import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPostman, type Collection, type Environment } from '../../scripts/build-postman.js';
import { readContract } from '../../scripts/contracts.js';
import { CONTRACTS } from '../../scripts/tools.js';
import { startServer, type TestServer } from '../support/server.js';

/**
 * `npm run build:postman`: a collection and an environment per contract.
 * Each collection has every operation; a tester who imports both, points
 * the environment at a deployment and sends a GET request as it comes gets
 * an answer its operation documents (optional parameters are off).
 */
interface Request {
  method: string;
  url: {
    host: string[];
    path: string[];
    query?: { key: string; value: string; disabled?: boolean; description?: string | { content?: string } }[];
    variable?: { key: string; value: string }[];
  };
  auth?: { type: string; bearer?: { key: string; value: string }[] };
}
interface Item {
  name: string;
  item?: Item[];
  request?: Request;
}

let out: string;
let server: TestServer;
beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'postman-'));
  [server] = await Promise.all([startServer(), buildPostman(out)]);
}, 120_000);
afterAll(async () => {
  await server?.close();
  rmSync(out, { recursive: true, force: true });
});

const requests = (items: Item[]): Item[] => items.flatMap((item) => (item.item ? requests(item.item) : [item]));
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

describe.each(CONTRACTS)('the Postman files of %s', (name) => {
  const files = () => ({
    collection: JSON.parse(readFileSync(join(out, `${name}.postman_collection.json`), 'utf8')) as Collection & {
      item: Item[];
    },
    environment: JSON.parse(readFileSync(join(out, `${name}.postman_environment.json`), 'utf8')) as Environment,
  });

  it('hold every operation of the contract, and an environment with its base URL and a token', () => {
    const { collection, environment } = files();
    const contract = readContract(name);
    const operations = Object.values(contract.paths ?? {}).flatMap((item) =>
      METHODS.filter((method) => method in item),
    );
    expect(requests(collection.item)).toHaveLength(operations.length);
    expect(collection.info.name).toBe((contract.info as { title: string }).title);
    expect(environment.values.map((value) => value.key)).toContain('token');
    expect(environment.values.find((value) => value.key === 'token')).toMatchObject({ type: 'secret', value: '' });
    for (const item of requests(collection.item)) {
      // Optional parameters are off until the tester ticks them; a required one (search's `username`) is on.
      for (const parameter of item.request!.url.query ?? []) {
        const described = parameter.description;
        const required = /^\(Required\)/.test(typeof described === 'string' ? described : (described?.content ?? ''));
        expect(parameter.disabled === true, `${item.name}: ${parameter.key}`).toBe(!required);
      }
      if (item.request!.auth?.type === 'bearer')
        expect(item.request!.auth.bearer).toEqual([{ key: 'token', value: '{{token}}' }]);
    }
  });

  it('answer each GET request, sent as it comes, as its operation documents', async () => {
    const { collection, environment } = files();
    // The environment pointed at this deployment, as a tester edits it.
    const values = new Map<string, string>([
      ...(collection.variable ?? []).map((variable) => [variable.key, String(variable.value)] as [string, string]),
      ...environment.values.map(
        (value) => [value.key, value.value.replace('http://localhost:8080', server.url)] as [string, string],
      ),
    ]);
    const expand = (text: string): string =>
      /\{\{([\w.][\w.-]*)\}\}/.test(text)
        ? expand(text.replace(/\{\{([\w.][\w.-]*)\}\}/g, (_, key: string) => values.get(key) ?? ''))
        : text;
    const gets = requests(collection.item).filter((item) => item.request!.method === 'GET');
    expect(gets.length).toBeGreaterThan(0);
    const contract = readContract(name);
    for (const item of gets) {
      const { url } = item.request!;
      const variables = new Map((url.variable ?? []).map((variable) => [variable.key, variable.value]));
      // A whole segment is a path variable (`:post_ID`); one inside a segment (`slug:{{post_slug}}`) is a collection variable.
      const path = url.path
        .map((segment) =>
          segment.startsWith(':') ? encodeURIComponent(variables.get(segment.slice(1)) ?? '') : expand(segment),
        )
        .join('/');
      const query = (url.query ?? [])
        .filter((parameter) => !parameter.disabled)
        .map((parameter) => `${parameter.key}=${encodeURIComponent(parameter.value)}`);
      const target = `${expand(url.host.join('.'))}/${path}${query.length ? `?${query.join('&')}` : ''}`;
      expect(target.startsWith(server.url), target).toBe(true);
      const res = await fetch(target, { redirect: 'manual' });
      const template = url.path
        .map((segment) =>
          segment.startsWith(':') ? `{${segment.slice(1)}}` : segment.replace(/\{\{(\w+)\}\}/g, '{$1}'),
        )
        .join('/');
      const operation = contract.paths![`/${template}`]!.get as { responses: Record<string, unknown> };
      expect(Object.keys(operation.responses), `${item.name}: GET ${target} -> ${res.status}`).toContain(
        String(res.status),
      );
      expect(res.headers.get('content-type') ?? '', target).not.toContain('javascript');
    }
  });
});
