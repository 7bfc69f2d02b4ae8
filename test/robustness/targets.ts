import type { ContractOperation } from '../../src/platform/contract/types.js';
import type { ServiceDefinition } from '../../src/platform/pipeline/service.js';

/**
 * What the robustness suites send requests to, read from the loaded
 * contracts: every operation with its parameters, their examples and the
 * example body. Apart from the request generators (`requests.ts`), whose
 * fast-check arbitraries cost a second or more to build at import: the
 * suites that send fixed requests import only this.
 */

/** The part of a JSON Schema the robustness suites read. */
export interface Schema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
  properties?: Record<string, Schema>;
  anyOf?: Schema[];
  oneOf?: Schema[];
}

/** A parameter object of a dereferenced OpenAPI document. */
export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}

/** One operation to fuzz, with what its contract says about its parameters. */
export interface FuzzTarget {
  service: ServiceDefinition;
  operation: ContractOperation;
  parameters: Parameter[];
  /** Query parameters other operations of the service declare (a service may read them everywhere, like `callback`). */
  siblingQuery: Parameter[];
  /** Label for test names: `profiles getProfileById (GET /profiles/{profileIdentifier})`. */
  label: string;
}

/** Every operation of every service the app serves, read from the loaded contracts. */
export function fuzzTargets(services: readonly ServiceDefinition[]): FuzzTarget[] {
  return services.flatMap((service) => {
    const paths = service.contract.dereferenced.paths as Record<string, Record<string, unknown>>;
    const parametersOf = (operation: ContractOperation): Parameter[] => {
      const pathItem = paths[operation.path] as { parameters?: Parameter[] } & Record<
        string,
        { parameters?: Parameter[] }
      >;
      const own = pathItem[operation.method.toLowerCase()]?.parameters ?? [];
      const shared = (pathItem.parameters ?? []).filter((p) => !own.some((o) => o.name === p.name && o.in === p.in));
      return [...shared, ...own];
    };
    return service.contract.operations.map((operation) => {
      const parameters = parametersOf(operation);
      const siblingQuery = new Map(
        service.contract.operations
          .flatMap(parametersOf)
          .filter((p) => p.in === 'query' && !parameters.some((o) => o.in === 'query' && o.name === p.name))
          .map((p) => [p.name, p]),
      );
      return {
        service,
        operation,
        parameters,
        siblingQuery: [...siblingQuery.values()],
        label: `${service.name} ${operation.operationId} (${operation.method} ${operation.path})`,
      };
    });
  });
}

/** Examples the contract gives for a parameter (they name things that exist in the demo data). */
export function examplesOf(parameter: Parameter): string[] {
  const values = [parameter.example, ...Object.values(parameter.examples ?? {}).map((e) => e.value)];
  return values.filter((v) => v !== undefined && v !== null).map(String);
}

/** JSONP callback values that try to break out of the function name. */
export const CALLBACK_INJECTIONS = [
  'alert(1)//',
  'alert(document.cookie)',
  '</script><script>alert(1)</script>',
  'a\u2028b',
  'a\u2029b',
  'x);alert(1);//',
  '"+alert(1)+"',
  "'-alert(1)-'",
  'a.b.c_d',
  '_',
  '1abc',
  '()',
  '/**/',
  '-',
  '🙂',
  'x'.repeat(300),
];

/** The first example JSON body of an operation's contract (`{}` when it gives none). */
export function exampleBody(target: FuzzTarget): Record<string, unknown> {
  const pathItem = (target.service.contract.dereferenced.paths as Record<string, Record<string, unknown>>)[
    target.operation.path
  ]!;
  const operation = pathItem[target.operation.method.toLowerCase()] as {
    requestBody?: { content?: Record<string, { example?: unknown; examples?: Record<string, { value?: unknown }> }> };
  };
  const media = operation.requestBody?.content?.['application/json'];
  const example = media?.example ?? Object.values(media?.examples ?? {})[0]?.value;
  return example && typeof example === 'object' && !Array.isArray(example) ? (example as Record<string, unknown>) : {};
}

/** Every limit of the app out of reach: a run's many requests from one address are not an attack, and a refusal is not what is tested. */
export const LIMITS_OUT_OF_REACH = {
  RATE_LIMIT_ANONYMOUS: '1000000',
  RATE_LIMIT_KEYED: '1000000',
  RATE_LIMIT_AVATARS: '1000000',
  RATE_LIMIT_PUBLISHING_READS: '1000000',
  RATE_LIMIT_PUBLISHING_WRITES: '1000000',
  RATE_LIMIT_DEVELOPER: '1000000',
  RATE_LIMIT_OTHER: '1000000',
  RATE_LIMIT_OAUTH: '1000000',
  RATE_LIMIT_OAUTH_APPLICATION: '1000000',
  // The dashboard's own limits too.
  DEVELOPER_LOGIN_ATTEMPTS_PER_CLIENT: '1000000',
  DEVELOPER_LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT: '1000000',
  DEVELOPER_KEY_ROTATIONS_PER_DAY: '1000000',
  DEVELOPER_MAX_APPLICATIONS: '1000000',
};

/** What ends the session a request carries, in the order they go: the account's deletion ends it for good, and a log-in replaces it. */
export const SESSION_ENDS = ['deleteAccount', 'logOut', 'logIn'];
const ENDING = /^(delete|endSession|revoke|bulkDelete)/;
const rank = ({ operation: { operationId } }: FuzzTarget) =>
  SESSION_ENDS.includes(operationId) ? 2 + SESSION_ENDS.indexOf(operationId) : ENDING.test(operationId) ? 1 : 0;

/**
 * The targets with those that delete or revoke last, so the others run with their data, and those that end the
 * session the requests carry after them (`SESSION_ENDS`).
 */
export const destructiveLast = (targets: readonly FuzzTarget[]): FuzzTarget[] =>
  [...targets].sort((a, b) => rank(a) - rank(b));
