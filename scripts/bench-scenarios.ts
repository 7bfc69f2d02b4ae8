/** The benchmark's scenarios against a running server at `base` (see bench.ts). */
export async function scenarios(_base: string) {
  return [
    { name: 'openapi document (routing + handler)', method: 'GET' as const, path: '/v3/openapi', status: 200 },
  ];
}
