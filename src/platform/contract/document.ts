import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type jsYamlModule from 'js-yaml';
import { onFirstUse } from '../onFirstUse.js';
import { sha256Hex } from '../security/secrets.js';

/** Loaded when a YAML is read: a compiled server reads the build's JSON instead. */
const jsYaml = onFirstUse<typeof jsYamlModule>('js-yaml');

/**
 * A contract's YAML as data, read with the YAML 1.2 core schema (no dates
 * or other types beyond JSON's, as OpenAPI documents are JSON-compatible).
 * Read by js-yaml, the faster of the project's two YAML readers, because
 * start-up waits for it (docs/performance.md); a test checks that both read
 * every contract alike.
 */
export function parseContractYaml(text: string): Record<string, unknown> {
  const yaml = jsYaml();
  return yaml.load(text, { schema: yaml.CORE_SCHEMA }) as Record<string, unknown>;
}

/** Set by `npm run build:server` in the bundle it writes: the folder of the contracts' JSON, from the bundle. */
declare const BUNDLED_CONTRACTS_DIR: string | undefined;

/**
 * Where `npm run build:server` wrote each contract as JSON, beside the
 * bundled server (`dist/server/openapi/<name>.json`). Run from its
 * TypeScript source there is none, and the YAML is read.
 */
const COMPILED_CONTRACTS =
  typeof BUNDLED_CONTRACTS_DIR === 'string' ? new URL(BUNDLED_CONTRACTS_DIR, import.meta.url) : undefined;

/** A contract as the build writes it: the document, and the SHA-256 of the YAML it was read from. */
export interface CompiledContract {
  sha256: string;
  document: Record<string, unknown>;
}

/**
 * A contract's document: the build's JSON of it when that was made from
 * this very YAML (same SHA-256), else the YAML read now. Parsing JSON is
 * far cheaper than YAML at start-up; a YAML edited after the build is read
 * as it is now.
 */
export function readContractDocument(file: string, compiledDir = COMPILED_CONTRACTS): Record<string, unknown> {
  const text = readFileSync(file, 'utf8');
  if (!compiledDir) return parseContractYaml(text);
  try {
    const compiled = JSON.parse(
      readFileSync(new URL(`${basename(file, extname(file))}.json`, compiledDir), 'utf8'),
    ) as CompiledContract;
    if (compiled.sha256 === sha256Hex(text)) return compiled.document;
  } catch {
    // No build of it, or not readable: the YAML is the source.
  }
  return parseContractYaml(text);
}

/** The build's JSON of a contract (see `readContractDocument`). */
export function compileContract(text: string): CompiledContract {
  return { sha256: sha256Hex(text), document: parseContractYaml(text) };
}
