import type { ValidateFunction } from 'ajv';

/** One operation of a contract, with everything the pipeline needs, each part compiled once. */
export interface ContractOperation {
  operationId: string;
  method: string;
  /** Path template as written in the contract, e.g. `/profiles/{profileIdentifier}`. */
  path: string;
  /**
   * The path of the operation's own server (`servers` on its path item or on
   * itself, variables at their defaults), when it declares one: the
   * operation is then served under it instead of the service's prefix
   * (`''` for the avatar images at the site's root).
   */
  serverPath?: string;
  pathParams: { name: string; integer: boolean }[];
  /** The query parameters it declares, by name, and how each is read (`readQuery`). */
  queryParams: ReadonlyMap<string, QueryParameterSpec>;
  /** `required` when no security requirement is empty; `optional` when `{}` is allowed; `none` when `security: []`. */
  security: 'required' | 'optional' | 'none';
  /** The security schemes its requirements name (`components.securitySchemes` keys), in the order written. */
  securitySchemes: string[];
  /** Validators over `{path, query, header, requestBody}`: parameters, and the JSON body when the operation has one (compiled when first read). */
  readonly validateRequest: ValidateFunction[];
  /** The operation takes a JSON request body (`required` when it must be present). */
  body: 'none' | 'optional' | 'required';
  /**
   * The media types its body may come in besides `application/json`:
   * `application/x-www-form-urlencoded`, `multipart/form-data` (read as PHP
   * reads them, `formBodies.ts`, and validated by the JSON body's schema).
   */
  formBodies: ReadonlySet<'application/x-www-form-urlencoded' | 'multipart/form-data'>;
  /** Validators by status code for `application/json` bodies (test and development use; compiled when first read). */
  readonly responseValidators: Record<string, ValidateFunction>;
  /** Status codes whose answer is bytes of another media type (`image/png`): their bodies are Buffers, not JSON. */
  binaryStatuses: ReadonlySet<string>;
}

/**
 * How a declared query parameter is read: whether its schema accepts a
 * boolean (`type: boolean`, or in an `anyOf`), whether it is an array, and
 * whether it is an object sent as `name[key]=value` (`style: deepObject`).
 */
export interface QueryParameterSpec {
  boolean: boolean;
  array: boolean;
  object?: boolean;
}

/** A loaded, dereferenced and compiled OpenAPI 3.1 document. */
export interface Contract {
  /** The document as written (with `$ref`s), served to clients. */
  document: Record<string, unknown>;
  /** The same document with every `$ref` resolved (what the validators were compiled from). */
  dereferenced: Record<string, unknown>;
  operations: ContractOperation[];
  /** `components.securitySchemes`: where each scheme's credential is sent. */
  securitySchemes: Record<string, SecurityScheme>;
  byOperationId: Map<string, ContractOperation>;
  /**
   * Validates the headers of an answer (any letter case; a repeated header as
   * an array) against what the operation declares for that status: every
   * `required: true` header present, every declared header that is present
   * valid against its schema. Null when valid, else one line naming the header.
   */
  validateResponseHeaders(operationId: string, status: number, headers: ResponseHeaders): string | null;
}

/** A security scheme as the contract declares it (the parts that say where its credential is). */
export interface SecurityScheme {
  type: string;
  /** `http` schemes: `bearer`, `basic`, … */
  scheme?: string;
  /** `apiKey` schemes: where the key is sent, and under which name. */
  in?: 'header' | 'query' | 'cookie';
  name?: string;
}

/** Response headers as Node holds them (`res.getHeaders()`) or as plain text. */
export type ResponseHeaders = Readonly<Record<string, string | number | readonly string[] | undefined>>;
