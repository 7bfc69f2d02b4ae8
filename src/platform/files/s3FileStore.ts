import type * as S3 from '@aws-sdk/client-s3';
import { checkedKey, type FileStore } from './fileStore.js';

/** Where an S3-compatible bucket is: its name, a key prefix, and the service's address when it is not AWS. */
export interface S3Location {
  bucket: string;
  /** Prepended to every key (`media-prod/`), or empty. */
  prefix: string;
  /** `https://s3.example.net` for another S3-compatible service; undefined for AWS. */
  endpoint?: string;
  region: string;
  /** Path-style addressing (`endpoint/bucket/key`), which most S3-compatible services need. */
  pathStyle: boolean;
  /** Keys of the deployment's own; without them the SDK's usual sources (environment, profile, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** The AWS SDK's S3 client, loaded when the first file is stored or read (docs/decisions/lazy-packages.md). */
let s3Module: Promise<typeof S3> | undefined;
const loadS3 = () => (s3Module ??= import('@aws-sdk/client-s3'));

const isMissing = (error: unknown) => {
  const name = (error as { name?: string }).name;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return name === 'NoSuchKey' || name === 'NotFound' || status === 404;
};

/**
 * Files in an S3-compatible bucket (`@aws-sdk/client-s3`), so every
 * instance sees the same files. Credentials are the location's, else the
 * SDK's usual sources (`AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY`, a
 * profile, an instance role). A put is one request: S3 stores an object whole or not
 * at all.
 */
export function s3FileStore(location: S3Location): FileStore {
  let client: Promise<{ s3: typeof S3; client: S3.S3Client }> | undefined;
  const connected = () =>
    (client ??= loadS3().then((s3) => ({
      s3,
      client: new s3.S3Client({
        region: location.region,
        ...(location.endpoint ? { endpoint: location.endpoint } : {}),
        forcePathStyle: location.pathStyle,
        ...(location.credentials ? { credentials: location.credentials } : {}),
      }),
    })));
  const objectKey = (key: string) => `${location.prefix}${checkedKey(key)}`;
  return {
    async put(key, bytes, contentType) {
      const { s3, client } = await connected();
      await client.send(
        new s3.PutObjectCommand({
          Bucket: location.bucket,
          Key: objectKey(key),
          Body: bytes,
          ContentType: contentType,
        }),
      );
    },
    async get(key) {
      const { s3, client } = await connected();
      try {
        const answer = await client.send(new s3.GetObjectCommand({ Bucket: location.bucket, Key: objectKey(key) }));
        return answer.Body ? Buffer.from(await answer.Body.transformToByteArray()) : undefined;
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async delete(key) {
      const { s3, client } = await connected();
      await client.send(new s3.DeleteObjectCommand({ Bucket: location.bucket, Key: objectKey(key) }));
    },
    async *list(prefix) {
      const { s3, client } = await connected();
      let token: string | undefined;
      do {
        const page = await client.send(
          new s3.ListObjectsV2Command({
            Bucket: location.bucket,
            Prefix: `${location.prefix}${prefix}`,
            ContinuationToken: token,
          }),
        );
        for (const object of page.Contents ?? []) {
          if (!object.Key) continue;
          yield { key: object.Key.slice(location.prefix.length), modified: object.LastModified ?? new Date(0) };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}
