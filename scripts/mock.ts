/**
 * Serves every contract `openapi/<name>.yaml` with the Prism mock (no
 * telemetry), each on the port `MOCK_<NAME>_PORT` names: by default
 * profiles on 4010, publishing on 4011, the developer dashboard on 4012 (the
 * ports the README has always given), and any other contract on the ports
 * after those, in name order. Ctrl-C stops them all.
 */
import { spawn } from 'node:child_process';
import { CONTRACTS, projectRoot, quietToolEnv } from './tools.js';

const DOCUMENTED_PORTS: Readonly<Record<string, number>> = { profiles: 4010, publishing: 4011, developer: 4012 };
let nextPort = Math.max(...Object.values(DOCUMENTED_PORTS)) + 1;
const ports = CONTRACTS.map((name) => {
  const fallback = DOCUMENTED_PORTS[name] ?? nextPort++;
  return { name, port: Number(process.env[`MOCK_${name.toUpperCase()}_PORT`] ?? fallback) };
});
const host = process.env.MOCK_HOST ?? '127.0.0.1';

const children = ports.map(({ name, port }) =>
  spawn(
    `${projectRoot}node_modules/.bin/prism`,
    ['mock', '-v', 'warn', '-h', host, '-p', String(port), `openapi/${name}.yaml`],
    { cwd: projectRoot, stdio: 'inherit', env: quietToolEnv },
  ),
);
console.log(`prism mock: ${ports.map(({ name, port }) => `${name} http://${host}:${port}`).join('  ')}`);
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
children.forEach((child) => child.on('exit', (code) => code && process.exit(code)));
