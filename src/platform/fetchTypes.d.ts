/**
 * The fetch type name the generated SDK clients use (`generated/<service>/client/`)
 * that Node's types do not declare globally: the DOM library has it, and the
 * server's type check loads no DOM. Defined from Node's own `RequestInit`.
 */
type BodyInit = NonNullable<RequestInit['body']>;
