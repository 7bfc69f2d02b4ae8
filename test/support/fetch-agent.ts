import { Agent, setGlobalDispatcher } from 'undici';

/**
 * Test processes' `fetch` keeps an idle connection for at most one second.
 * Node's default keeps it until one second before the server's own
 * keep-alive timeout (5 s for Node servers such as Prism's mock), checked on
 * a coarse timer: on a loaded machine a request then goes out on a connection
 * the server is closing, and fails with "other side closed", a failure of the
 * machine, not of the code under test. Our own servers keep connections far
 * longer (`KEEP_ALIVE_TIMEOUT_MS`, tested in test/robustness/keep-alive.test.ts).
 */
setGlobalDispatcher(new Agent({ keepAliveTimeout: 1000, keepAliveMaxTimeout: 1000 }));
