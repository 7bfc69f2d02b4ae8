// @store-independent: it reads the contracts
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readContract } from '../../scripts/contracts.js';

/**
 * An operation that takes `http_envelope` answers 200 with its body or its
 * envelope; the envelope's `body` says what the real body may be. Each body
 * the operation's 200 declares is listed there, so the envelope of every
 * operation is typed and validated with its own body (the SDK narrows by
 * `http_envelope`, and the server's answers are checked against it).
 */
type Schema = { $ref?: string; anyOf?: Schema[]; oneOf?: Schema[]; properties?: Record<string, Schema> };
type Response = { $ref?: string; content?: Record<string, { schema?: Schema }> };

const name = (ref: string) => ref.split('/').pop()!;

const contracts = readdirSync('openapi')
  .filter((file) => file.endsWith('.yaml'))
  .map((file) => file.replace(/\.yaml$/, ''));

function envelopeCases(contract: string) {
  const document = readContract(contract) as {
    paths?: Record<string, Record<string, { operationId?: string; responses?: Record<string, Response> }>>;
    components?: { schemas?: Record<string, Schema>; responses?: Record<string, Response> };
  };
  const schemas = document.components?.schemas ?? {};
  const envelopes = new Map(
    Object.entries(schemas)
      .filter(([schemaName, schema]) => schemaName.endsWith('Envelope') && schema.properties?.body?.anyOf)
      .map(([schemaName, schema]) => [
        schemaName,
        new Set(schema.properties!.body!.anyOf!.map((s) => name(s.$ref ?? ''))),
      ]),
  );
  const cases = Object.values(document.paths ?? {}).flatMap((item) =>
    Object.values(item).flatMap((operation) => {
      let ok = operation?.responses?.['200'];
      if (ok?.$ref) ok = document.components?.responses?.[name(ok.$ref)];
      const schema = ok?.content?.['application/json']?.schema;
      const bodies = (schema?.anyOf ?? schema?.oneOf ?? (schema ? [schema] : [])).map((s) => name(s.$ref ?? ''));
      const envelope = bodies.find((body) => envelopes.has(body));
      return envelope && operation.operationId
        ? [{ operationId: operation.operationId, envelope, bodies: bodies.filter((body) => body !== envelope) }]
        : [];
    }),
  );

  return { contract, envelopes, cases };
}

const withEnvelopes = contracts.map(envelopeCases).filter(({ cases }) => cases.length > 0);

it('finds the operations with an envelope (publishing’s)', () => {
  expect(withEnvelopes.map(({ contract }) => contract)).toContain('publishing');
});

describe.each(withEnvelopes)('openapi/$contract.yaml', ({ envelopes, cases }) => {
  it('each operation’s envelope lists every body its 200 declares', () => {
    const missing = cases.flatMap(({ operationId, envelope, bodies }) =>
      bodies
        .filter((body) => !envelopes.get(envelope)!.has(body))
        .map((body) => `${operationId}: ${envelope} lacks ${body}`),
    );
    expect(missing).toEqual([]);
  });
});
