/** `cluster-key-slot` (the hash ioredis itself routes keys by) ships no types. */
declare module 'cluster-key-slot' {
  /** The Redis Cluster slot (0 to 16383) of a key, hash tags included. */
  export default function generate(key: string): number;
}
