/** Peer: raw `node:http` writing the answer bytes, no routing and no validation (the floor). */
import { createServer } from 'node:http';
import { body, contentType, host, port } from './common.js';

const length = String(body.length);
createServer((_request, response) => {
  response.writeHead(200, { 'content-type': contentType, 'content-length': length });
  response.end(body);
}).listen(port, host);
