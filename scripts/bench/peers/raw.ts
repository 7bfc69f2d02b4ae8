/** Peer: raw `node:http` writing the answer bytes (and the project's headers, with BENCH_WITH_HEADERS=1), no routing and no validation (the floor). */
import { createServer } from 'node:http';
import { body, contentType, extraHeaders, host, port } from './common.js';

const headers = { ...extraHeaders, 'content-type': contentType, 'content-length': String(body.length) };
createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
}).listen(port, host);
