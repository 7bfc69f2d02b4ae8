/** One measured request shape. */
export interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  /** Expected status of every answer (anything else is counted as an error). */
  status: number;
}

/** The benchmark's scenarios against a running server at `base` (see bench.ts). */
export async function scenarios(_base: string): Promise<Scenario[]> {
  return [
    { name: 'openapi document (routing + handler)', method: 'GET', path: '/v3/openapi', status: 200 },
  ];
}
