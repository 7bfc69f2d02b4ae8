/**
 * Contracts of a chosen size for the routing rows: the profiles contract cut
 * to its profile lookup and its OpenAPI document (2 operations), or padded
 * with generated operations up to `operations`. The generated paths come
 * before the profile path, so a router that tries routes in order walks
 * past every one of them to find the profile.
 */
export function contractWithOperations(profiles: Record<string, unknown>, operations: number): Record<string, unknown> {
  const paths = profiles.paths as Record<string, unknown>;
  // The lookup, then the document: whatever other operations the contract gains.
  const kept = {
    '/profiles/{profileIdentifier}': paths['/profiles/{profileIdentifier}'],
    '/openapi': paths['/openapi'],
  };
  const generated: Record<string, unknown> = {};
  const padding = operations - operationCount({ paths: kept });
  for (let i = 1; i <= padding; i++) {
    generated[`/resource${i}/{id}`] = {
      get: {
        operationId: `getResource${i}`,
        summary: `Generated operation ${i}`,
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1, maxLength: 64 } },
        ],
        responses: {
          '200': {
            description: 'The resource.',
            content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } } } } },
          },
          '400': { $ref: '#/components/responses/BadRequest' },
          '404': {
            description: 'No such resource.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        },
      },
    };
  }
  return { ...profiles, paths: { ...generated, ...kept } };
}

/** How many operations a contract declares. */
export function operationCount(contract: Record<string, unknown>): number {
  const methods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
  return Object.values(contract.paths as Record<string, Record<string, unknown>>).reduce(
    (sum, item) => sum + Object.keys(item).filter((key) => methods.has(key)).length,
    0,
  );
}
