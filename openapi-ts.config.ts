import { defineConfig } from '@hey-api/openapi-ts';
import { CONTRACTS } from './scripts/tools.js';

/** One generated folder per contract (every `openapi/<name>.yaml`): types and a typed fetch SDK. */
const OUTPUT_ROOT = process.env.GENERATE_OUTPUT_ROOT ?? './generated';

export default defineConfig(
  CONTRACTS.map((service) => ({
    input: `./openapi/${service}.yaml`,
    output: { path: `${OUTPUT_ROOT}/${service}`, format: null, lint: null },
    plugins: ['@hey-api/typescript', '@hey-api/sdk', '@hey-api/client-fetch'],
  })),
);
