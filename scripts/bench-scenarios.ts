/** One measured request shape. */
export interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  /** Expected status of every answer (anything else is counted as an error). */
  status: number;
}

/** Where the benchmarked server runs and which store it uses (to create keys or tokens). */
export interface BenchTarget {
  base: string;
  databaseUrl: string;
}

/** The benchmark's scenarios against a running server (see bench.ts). */
export async function scenarios(_target: BenchTarget): Promise<Scenario[]> {
  return [
    { name: 'openapi document (routing + handler)', method: 'GET', path: '/v3/openapi', status: 200 },
  ];
}
