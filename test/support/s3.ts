import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';

/** The bucket the run's S3-compatible server holds for the tests. */
export const TEST_BUCKET = 'media-tests';

/** The credentials s3rver takes. */
export const S3RVER_CREDENTIALS = { MEDIA_S3_ACCESS_KEY_ID: 'S3RVER', MEDIA_S3_SECRET_ACCESS_KEY: 'S3RVER' } as const;

/**
 * Starts one S3-compatible server (s3rver, its files in a temporary
 * folder) for the whole run, with the test bucket; answers its endpoint and
 * how to stop it. Started by the run's global setup, not per file.
 */
export async function startS3rver(): Promise<{ endpoint: string; stop: () => Promise<void> }> {
  // s3rver ships no types: the two calls used are declared here.
  const name = 's3rver';
  const { default: S3rver } = (await import(name)) as {
    default: new (
      options: object,
    ) => {
      run(): Promise<{ port: number }>;
      close(): Promise<void>;
    };
  };
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: TEST_BUCKET }],
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** `MEDIA_STORAGE` and credentials for a test server on the run's S3 server, its keys under `prefix`. */
export function s3Env(prefix: string): Record<string, string> {
  const endpoint = inject('s3Endpoint');
  return {
    MEDIA_STORAGE: `s3://${TEST_BUCKET}/${prefix}?endpoint=${encodeURIComponent(endpoint)}&path_style=true`,
    ...S3RVER_CREDENTIALS,
  };
}
