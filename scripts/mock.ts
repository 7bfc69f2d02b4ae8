/**
 * Serves every contract with the Prism mock (no telemetry): profiles on
 * MOCK_PROFILES_PORT (default 4010), publishing on MOCK_PUBLISHING_PORT
 * (default 4011), the developer dashboard on MOCK_DEVELOPER_PORT (default
 * 4012). Ctrl-C stops them all.
 */
import { spawn } from 'node:child_process';
import { projectRoot, quietToolEnv } from './tools.js';

const ports = {
  profiles: Number(process.env.MOCK_PROFILES_PORT ?? 4010),
  publishing: Number(process.env.MOCK_PUBLISHING_PORT ?? 4011),
  developer: Number(process.env.MOCK_DEVELOPER_PORT ?? 4012),
};
const host = process.env.MOCK_HOST ?? '127.0.0.1';

const children = Object.entries(ports).map(([name, port]) =>
  spawn(
    `${projectRoot}node_modules/.bin/prism`,
    ['mock', '-v', 'warn', '-h', host, '-p', String(port), `openapi/${name}.yaml`],
    { cwd: projectRoot, stdio: 'inherit', env: quietToolEnv },
  ),
);
console.log(
  `prism mock: profiles http://${host}:${ports.profiles}  publishing http://${host}:${ports.publishing}  developer http://${host}:${ports.developer}`,
);
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
children.forEach((child) => child.on('exit', (code) => code && process.exit(code)));
